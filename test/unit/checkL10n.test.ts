// scripts/checkL10n.js (npm test's "l10n" step): a project whose translations are complete passes;
// each way one can be incomplete or wrong is reported, and names the string and the file.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const { checkL10n } = require(join(root, 'scripts', 'checkL10n.js')) as {
  checkL10n(projectRoot: string): Promise<{ problems: string[]; strings: number; manifestKeys: number }>;
};
const { l10nStrings } = require(join(root, 'scripts', 'lib', 'l10nStrings.js')) as {
  l10nStrings(fileName: string, text: string): { strings: Record<string, unknown>; computed: number[] };
};

interface Project {
  sources: Record<string, string>;
  german: Record<string, string>;
  manifest: unknown;
  nls: Record<string, string>;
  nlsGerman: Record<string, string>;
}

function soundProject(): Project {
  return {
    sources: {
      'src/commands/importSpot.ts': [
        "import * as vscode from 'vscode';",
        '// vscode.l10n.t(someVariable) in a comment is no call',
        "export const done = (count: number) => vscode.l10n.t('Imported {0} spots', count);",
        "export const state = () => vscode.l10n.t({ message: 'State', args: [], comment: ['a spot\\'s state'] });",
      ].join('\n'),
      'src/core/documents/problem.ts':
        "import { l10n } from '../text/l10n';\nexport const outside = (value: number) => l10n.t('Latitude {0} is out of range', value);\n",
    },
    german: {
      'Imported {0} spots': '{0} Spots importiert',
      "State/a spot's state": 'Status',
      'Latitude {0} is out of range': 'Breitengrad {0} liegt außerhalb des gültigen Bereichs',
    },
    manifest: { contributes: { commands: [{ command: 'spotImport.importSpot', title: '%command.importSpot.title%', category: 'Spot Import' }] } },
    nls: { 'command.importSpot.title': 'Import Spot' },
    nlsGerman: { 'command.importSpot.title': 'Spot importieren' },
  };
}

describe('scripts/checkL10n.js: the translations, checked both ways', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spot-l10n-check-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function check(project: Project) {
    for (const [file, text] of Object.entries(project.sources)) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    mkdirSync(join(dir, 'l10n'), { recursive: true });
    writeFileSync(join(dir, 'l10n', 'bundle.l10n.de.json'), JSON.stringify(project.german));
    writeFileSync(join(dir, 'package.json'), JSON.stringify(project.manifest));
    writeFileSync(join(dir, 'package.nls.json'), JSON.stringify(project.nls));
    writeFileSync(join(dir, 'package.nls.de.json'), JSON.stringify(project.nlsGerman));
    return checkL10n(dir);
  }

  it('passes a project whose every string and manifest key is translated', async () => {
    const result = await check(soundProject());
    assert.deepEqual(result.problems, []);
    assert.equal(result.strings, 3);
    assert.equal(result.manifestKeys, 1);
  });

  it("finds the core's messages where l10n is imported beside other names of the module", async () => {
    const project = soundProject();
    project.sources['src/core/documents/problem.ts'] =
      "import { formatDecimal, l10n } from '../text/l10n';\nexport const outside = (value: number) => l10n.t('Latitude {0} is out of range', formatDecimal(value, 1));\n";
    const result = await check(project);
    assert.deepEqual(result.problems, []);
    assert.equal(result.strings, 3);
  });

  it('reports a string of the code with no German, naming it', async () => {
    const project = soundProject();
    delete project.german['Latitude {0} is out of range'];
    assert.deepEqual((await check(project)).problems, ['l10n/bundle.l10n.de.json: no translation of "Latitude {0} is out of range"']);
  });

  it('reports a German string that nothing uses any more', async () => {
    const project = soundProject();
    project.german['Imported one spot'] = 'Einen Spot importiert';
    assert.deepEqual((await check(project)).problems, ['l10n/bundle.l10n.de.json: "Imported one spot" is translated but nothing uses it']);
  });

  it('reports a translation whose placeholders differ from its English', async () => {
    const project = soundProject();
    project.german['Imported {0} spots'] = '{1} Spots importiert';
    const [problem, ...rest] = (await check(project)).problems;
    assert.deepEqual(rest, []);
    assert.match(problem, /"Imported \{0\} spots" has placeholders \{0\} but its translation \{1\}/);
  });

  it('reports an empty translation', async () => {
    const project = soundProject();
    project.german["State/a spot's state"] = ' ';
    assert.deepEqual((await check(project)).problems, ['l10n/bundle.l10n.de.json: the translation of "State/a spot\'s state" is empty']);
  });

  it('reports a message that is not a literal, at its line', async () => {
    const project = soundProject();
    project.sources['src/views/label.ts'] = "import * as vscode from 'vscode';\n\nexport const label = (text: string) => vscode.l10n.t(text);\n";
    const problems = (await check(project)).problems;
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /^src\/views\/label\.ts:3: the message of l10n\.t must be a literal/);
  });

  it('reports manifest keys missing from an nls file, and nls keys the manifest does not use', async () => {
    const project = soundProject();
    project.manifest = {
      contributes: {
        commands: [
          { command: 'a', title: '%command.importSpot.title%' },
          { command: 'b', title: '%command.importFolder.title%' },
        ],
      },
    };
    project.nls['command.unused.title'] = 'Unused';
    project.nlsGerman['command.unused.title'] = 'Unbenutzt';
    const problems = (await check(project)).problems.sort();
    assert.deepEqual(problems, [
      'package.nls.json: "command.unused.title" is not used by package.json',
      'package.nls.json: no "command.importFolder.title", which package.json names as %command.importFolder.title%',
    ]);
  });

  it('reports a manifest key the German nls file lacks', async () => {
    const project = soundProject();
    project.nlsGerman = {};
    assert.deepEqual((await check(project)).problems, ['package.nls.de.json: no translation of "command.importSpot.title"']);
  });

  it('reports a tagged template l10n.t`…` as a message the check cannot see, at its line', async () => {
    const project = soundProject();
    project.sources['src/views/label.ts'] = "import * as vscode from 'vscode';\nexport const label = () => vscode.l10n.t`Label`;\n";
    const problems = (await check(project)).problems;
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(problems[0], /^src\/views\/label\.ts:2: the message of l10n\.t must be a literal/);
  });

  it("finds the keys @vscode/l10n-dev's export finds, escapes, comments and templates included", async () => {
    // The export is the reference: what it writes is what VS Code looks up at run time.
    const text = [
      "import * as vscode from 'vscode';",
      "import * as l10n from '@vscode/l10n';",
      '// vscode.l10n.t("In a comment") is no call; /* l10n.t("nor this") */',
      "const url = 'https://example.org/*'; // l10n.t('x')",
      "export const a = () => vscode.l10n.t('Imported {0} spots', 3);",
      'export const b = () => vscode.l10n.t("It\'s \\"quoted\\"\\t{0}", url);',
      'export const c = () => vscode.l10n.t(`A template\\nwith {0} lines`, 2);',
      "export const d = () => vscode.l10n.t({ message: 'State', args: [], comment: ['a spot\\'s state'] });",
      "export const e = () => vscode.l10n.t({ message: 'Open', args: [], comment: 'a verb' });",
      "export const f = () => l10n.t('From the core {0}//{1}', 1, 2);",
      "export const g = () => l10n.t({ message: 'Two parts', comment: ['one ', 'two'] });",
      "export const h = () => vscode.l10n.t('Imported {0} spots', 4);",
    ].join('\n');
    const { getL10nJson } = require('@vscode/l10n-dev') as {
      getL10nJson(files: Array<{ contents: string; extension: string }>): Promise<Record<string, unknown>>;
    };
    const reference = await getL10nJson([{ contents: text, extension: '.ts' }]);
    const ours = l10nStrings('fixture.ts', text);
    assert.deepEqual(ours.computed, []);
    assert.deepEqual(ours.strings, reference);
    assert.equal(Object.keys(reference).length, 7);
  });

  it('keys a \\u escape by the character it stands for, as the call gives it at run time', () => {
    // (@vscode/l10n-dev 0.0.35 decodes "\u00e9" to U+000E: the export would write a key nothing looks up.)
    const { strings } = l10nStrings('fixture.ts', "import * as vscode from 'vscode';\nvscode.l10n.t('Caf\\u00e9 {0}', 1);\n");
    assert.deepEqual(strings, { 'Café {0}': 'Café {0}' });
  });
});
