// Mocha root hooks (test/e2e/.mocharc.json requires this): one workbench for the whole e2e run,
// a screenshot of every failing test under artifacts/e2e/ (artifacts/e2e-vscode-<version>/ for another VS Code than the oldest).
import type { Context } from 'mocha';
import { shot, startWorkbench, stopWorkbench } from './workbench';

export const mochaHooks = {
  async beforeAll(this: Context) {
    this.timeout(20 * 60 * 1000); // a cold run installs code-server first
    await startWorkbench();
  },
  async afterEach(this: Context) {
    const test = this.currentTest;
    if (test?.state === 'failed') {
      const file = await shot(`failure-${test.fullTitle()}`);
      if (file) console.error(`      screenshot: ${file}`);
    }
  },
  async afterAll(this: Context) {
    this.timeout(60_000);
    await stopWorkbench();
  },
};
