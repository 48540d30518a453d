// scripts/checkCommands.js (npm test's "commands" step): every command id package.json names
// outside contributes.commands (menus, keybindings, `command:` links of the welcome views and the
// walkthrough's buttons, a step's `onCommand:` completion events) must be contributed, or one of
// VS Code's listed in BUILT_IN_COMMAND; a misspelt one would be a dead button.
import * as assert from 'assert';
import { join } from 'path';

const root = join(__dirname, '../../..');
type Manifest = { contributes: Record<string, unknown> };
type Messages = Record<string, string>;
const { manifestProblems, translatedManifestProblems, checkCommands } = require(join(root, 'scripts', 'checkCommands.js')) as {
  manifestProblems(manifest: Manifest, builtInIds: Iterable<string>): string[];
  translatedManifestProblems(manifest: Manifest, english: Messages, translations: Record<string, Messages>, builtInIds: Iterable<string>): string[];
  checkCommands(): { problems: string[]; contributed: number; registered: number; used: number };
};

const BUILT_IN = ['vscode.open', 'workbench.action.openSettings', 'spotImport.galleries.focus'];

/** A manifest whose every command reference is sound; each test misspells one. */
function manifest(): Manifest {
  return {
    contributes: {
      commands: ['spotImport.addProfile', 'spotImport.switchProfile', 'spotImport.media.moveUp', 'spotImport.gallery.openGrid'].map((command) => ({
        command,
        title: command,
      })),
      views: { spotImport: [{ id: 'spotImport.galleries', name: 'Galleries' }] },
      viewsWelcome: [
        {
          view: 'spotImport.galleries',
          contents:
            'No profile yet.\n[Add Profile](command:spotImport.addProfile)\n[Use Local Sandbox](command:spotImport.switchProfile?%5B%22local-sandbox%22%5D)\n' +
            '[Settings](command:workbench.action.openSettings?%5B%22spotImport%22%5D) [Docs](command:vscode.open?%5B%22https%3A%2F%2Fexample.org%22%5D)',
        },
      ],
      walkthroughs: [
        {
          id: 'spotImport.firstRun',
          title: 'Get started',
          steps: [
            {
              id: 'sandbox',
              title: 'Sandbox',
              description:
                'Try it.\n[Use the Sandbox](command:spotImport.switchProfile?["local-sandbox"])\n[Add Profile](command:toSide:spotImport.addProfile)',
              completionEvents: ['onCommand:spotImport.switchProfile', 'onView:spotImport.galleries'],
            },
            {
              id: 'gallery',
              title: 'Gallery',
              description: '[Open the Gallery](command:spotImport.gallery.openGrid)\n[Show the Galleries View](command:spotImport.galleries.focus)',
              completionEvents: ['onCommand:spotImport.gallery.openGrid'],
            },
          ],
        },
      ],
      menus: { 'view/title': [{ command: 'spotImport.gallery.openGrid', when: 'view == spotImport.galleries' }] },
      keybindings: [{ command: 'spotImport.media.moveUp', key: 'alt+up', when: 'focusedView == spotImport.galleries' }],
    },
  };
}

type Contributes = {
  viewsWelcome: Array<{ contents: string }>;
  walkthroughs: Array<{ steps: Array<{ description: string; completionEvents: string[] }> }>;
  keybindings: Array<{ command: string }>;
  menus: Record<string, Array<{ command: string; alt?: string }>>;
};

/** The problems of the sound manifest after `change`. */
function problemsAfter(change: (contributes: Contributes) => void): string[] {
  const m = manifest();
  change(m.contributes as unknown as Contributes);
  return manifestProblems(m, BUILT_IN);
}

/** Exactly one problem, naming the id and where it is. */
function assertOne(problems: string[], id: string, where: string): void {
  assert.strictEqual(problems.length, 1, `one problem expected, got: ${JSON.stringify(problems)}`);
  const [problem] = problems;
  assert.ok(problem.includes(where), `"${problem}" should say where: ${where}`);
  assert.ok(new RegExp(`[\\s:]${id.replace(/\./g, '\\.')}(?:$|[\\s(])`).test(problem), `"${problem}" should name ${id} (without its arguments)`);
}

describe('command ids named in package.json (scripts/checkCommands.js)', () => {
  it('finds nothing wrong in a manifest whose links, events, menus and keybindings all name known commands', () => {
    assert.deepStrictEqual(manifestProblems(manifest(), BUILT_IN), []);
  });

  it('reports a misspelt command in a welcome view link', () => {
    const problems = problemsAfter((c) => (c.viewsWelcome[0].contents += '\n[Walkthrough](command:spotImport.adProfile)'));
    assertOne(problems, 'spotImport.adProfile', 'contributes.viewsWelcome[0].contents');
  });

  it('reports a misspelt command in a walkthrough button with no arguments', () => {
    const problems = problemsAfter((c) => (c.walkthroughs[0].steps[1].description = '[Open the Gallery](command:spotImport.gallery.openGird)'));
    assertOne(problems, 'spotImport.gallery.openGird', 'contributes.walkthroughs[0].steps[1].description');
  });

  it('reports a misspelt command in a walkthrough button with arguments, plain or URL-encoded', () => {
    for (const args of ['["local-sandbox"]', '%5B%22local-sandbox%22%5D']) {
      const problems = problemsAfter((c) => (c.walkthroughs[0].steps[0].description = `[Sandbox](command:spotImport.switchProfil?${args})`));
      assertOne(problems, 'spotImport.switchProfil', 'contributes.walkthroughs[0].steps[0].description');
    }
  });

  it('reports a misspelt command in a completion event onCommand:', () => {
    const problems = problemsAfter((c) => (c.walkthroughs[0].steps[1].completionEvents = ['onCommand:spotImport.gallery.opengrid']));
    assertOne(problems, 'spotImport.gallery.opengrid', 'contributes.walkthroughs[0].steps[1].completionEvents[0]');
  });

  it('reports a completion event onView: of ours that names no contributed view', () => {
    const problems = problemsAfter((c) => (c.walkthroughs[0].steps[0].completionEvents = ['onView:spotImport.gallery']));
    assertOne(problems, 'spotImport.gallery', 'contributes.walkthroughs[0].steps[0].completionEvents[0]');
  });

  it('reports a misspelt command in a keybinding', () => {
    const problems = problemsAfter((c) => (c.keybindings[0].command = 'spotImport.media.moveUpp'));
    assertOne(problems, 'spotImport.media.moveUpp', 'contributes.keybindings[0]');
  });

  it("reports a VS Code command in a link that BUILT_IN_COMMAND does not list, and allows the listed ones (and a view's .focus)", () => {
    const problems = problemsAfter((c) => (c.viewsWelcome[0].contents += '\n[Keys](command:workbench.action.openGlobalKeybindings)'));
    assertOne(problems, 'workbench.action.openGlobalKeybindings', 'contributes.viewsWelcome[0].contents');
    assert.match(problems[0], /BUILT_IN_COMMAND/);
  });

  it('reports a misspelt command in a menu, as before, and in a menu item alt', () => {
    assertOne(
      problemsAfter((c) => (c.menus['view/title'][0].command = 'spotImport.gallery.openGrd')),
      'spotImport.gallery.openGrd',
      'menu "view/title"',
    );
    assertOne(
      problemsAfter((c) => (c.menus['view/title'][0].alt = 'spotImport.gallery.openGrd')),
      'spotImport.gallery.openGrd',
      'menu "view/title"',
    );
  });

  it('reports a link whose arguments are not JSON (VS Code would run the command with none)', () => {
    const problems = problemsAfter((c) => (c.viewsWelcome[0].contents = '[Sandbox](command:spotImport.switchProfile?%5Blocal-sandbox%5D)'));
    assertOne(problems, 'spotImport.switchProfile', 'contributes.viewsWelcome[0].contents');
    assert.match(problems[0], /JSON/);
  });

  it('checks the links of a "%key%" text in English (package.nls.json) and in each translation, naming the translation', () => {
    const KEY = 'viewsWelcome.galleries.noProfile';
    /** The sound manifest with its welcome view's text as "%key%" (and `change` made). */
    const keyed = (change: (contributes: Contributes) => void = () => undefined): Manifest => {
      const m = manifest();
      (m.contributes as unknown as Contributes).viewsWelcome[0].contents = `%${KEY}%`;
      change(m.contributes as unknown as Contributes);
      return m;
    };
    const english = { [KEY]: 'No profile yet.\n[Add Profile](command:spotImport.addProfile)' };
    const misspelt = { [KEY]: 'Noch kein Profil.\n[Profil hinzufügen](command:spotImport.adProfile)' };
    assert.deepStrictEqual(
      translatedManifestProblems(keyed(), english, { de: { [KEY]: 'Noch kein Profil.\n[Profil hinzufügen](command:spotImport.addProfile)' } }, BUILT_IN),
      [],
    );
    // A translation without the key shows the English.
    assert.deepStrictEqual(translatedManifestProblems(keyed(), english, { de: {} }, BUILT_IN), []);

    const german = translatedManifestProblems(keyed(), english, { de: misspelt }, BUILT_IN);
    assertOne(german, 'spotImport.adProfile', 'contributes.viewsWelcome[0].contents');
    assert.match(german[0], /^package\.nls\.de\.json: /);

    const inEnglish = translatedManifestProblems(keyed(), { [KEY]: '[Add Profile](command:spotImport.adProfile)' }, { de: english }, BUILT_IN);
    assertOne(inEnglish, 'spotImport.adProfile', 'contributes.viewsWelcome[0].contents');
    assert.doesNotMatch(inEnglish[0], /package\.nls/);

    // What every language shows alike is reported once.
    const everywhere = translatedManifestProblems(
      keyed((c) => (c.keybindings[0].command = 'spotImport.media.moveUpp')),
      english,
      { de: {} },
      BUILT_IN,
    );
    assertOne(everywhere, 'spotImport.media.moveUpp', 'contributes.keybindings[0]');
  });

  it("finds nothing wrong in the project's own package.json and code", () => {
    const { problems, contributed } = checkCommands();
    assert.deepStrictEqual(problems, []);
    assert.ok(contributed > 0);
  });
});
