// The integration suite's entry: VS Code loads this module as extensionTestsPath and calls run()
// inside the extension host. Both launchers (code-server and @vscode/test-electron) use it as is.
// Env: SPOT_TEST_GREP filters tests by title (mocha --grep). A run in which no test passed fails,
// so a filter that matches nothing (or a suite that lost its files) never looks green.
import * as fs from 'fs';
import Mocha from 'mocha';
import * as path from 'path';

/** Folders under test/integration that are no part of the main suite. */
const OWN_WINDOW = new Set(['launchers', 'untrusted', 'virtual']);

function testFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      // launchers: not tests; untrusted and virtual: the Restricted Mode and virtual-workspace
      // suites, each run in a window of its own (untrusted/index.ts, virtual/index.ts).
      if (entry.isDirectory()) return OWN_WINDOW.has(entry.name) ? [] : testFiles(full);
      return entry.name.endsWith('.test.js') ? [full] : [];
    })
    .sort();
}

export function run(): Promise<void> {
  return runSuite(__dirname);
}

/** Runs the *.test.js files under `dir` (not those of launchers/, untrusted/ or virtual/). */
export function runSuite(dir: string): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    // The launchers say whether their stdout is a terminal (the extension host cannot tell).
    color: process.env.SPOT_TEST_COLOR ? process.env.SPOT_TEST_COLOR === '1' : !process.env.NO_COLOR,
    timeout: Number(process.env.SPOT_TEST_CASE_TIMEOUT_MS ?? 30_000),
    grep: process.env.SPOT_TEST_GREP || undefined,
  });
  // Accept tdd-style files too (suite/test/suiteSetup), so either style works in one run.
  Mocha.interfaces.tdd(mocha.suite);

  const files = testFiles(dir);
  if (files.length === 0) return Promise.reject(new Error(`no integration tests (*.test.js) under ${dir}`));
  for (const file of files) mocha.addFile(file);

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const { passes = 0, pending = 0 } = runner.stats ?? {};
        console.log(`integration suite: ${passes} passed, ${failures} failed, ${pending} pending`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else if (passes === 0) {
          const grep = process.env.SPOT_TEST_GREP;
          const message = `no test ran; check SPOT_TEST_GREP${grep ? ` (now ${JSON.stringify(grep)})` : ' (unset)'}`;
          console.error(`integration suite: ${message}`);
          reject(new Error(message));
        } else resolve();
      });
    } catch (error) {
      console.error(error);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
