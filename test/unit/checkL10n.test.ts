// scripts/checkL10n.js (npm test's "l10n" step): a project whose translations are complete passes;
// each way one can be incomplete or wrong is reported, and names the string and the file.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
const { checkL10n, blankComments } = require(join(root, 'scripts', 'checkL10n.js')) as {
  checkL10n(projectRoot: string): Promise<{ problems: string[]; strings: number; manifestKeys: number }>;
  blankComments(text: string): string;
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

  it('blanks comments but keeps lines and strings with // in them', () => {
    const text = "const a = 'https://x'; // l10n.t(x)\n/* l10n.t(y)\n */ const b = l10n.t('from {1}//{2}', 1, 2);";
    const blanked = blankComments(text);
    assert.equal(blanked.split('\n').length, 3);
    assert.ok(blanked.includes("'https://x'"));
    assert.ok(!blanked.includes('l10n.t(x)') && !blanked.includes('l10n.t(y)'));
    assert.ok(blanked.includes("l10n.t('from {1}//{2}', 1, 2);"), blanked);
  });
});
