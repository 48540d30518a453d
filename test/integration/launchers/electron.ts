// Standard launcher for machines that can download VS Code: @vscode/test-electron fetches the
// desktop build into .vscode-test/ and runs the same suite (test/integration/index.ts) in it.
// Usage: npm run test:integration:electron
// Headless Linux: xvfb-run -a npm run test:integration:electron   (Debian package xvfb)
// Env: SPOT_VSCODE_VERSION (unset = 1.100.3, the oldest engines.vscode accepts; "latest" = stable;
//      or a VS Code version 1.x.y), SPOT_TEST_GREP.
import { runTests } from '@vscode/test-electron';
import * as path from 'path';
import { fixtureWorkspace, repoRoot } from './harness/paths';

export const PINNED_VSCODE = '1.100.3';

function vscodeVersion(spec = (process.env.SPOT_VSCODE_VERSION ?? '').trim()): string {
  if (spec === '' || spec === 'pinned' || spec === 'oldest') return PINNED_VSCODE;
  if (spec === 'latest' || spec === 'newest') return 'stable';
  if (/^4\.\d+\.\d+$/.test(spec)) return spec.replace(/^4\./, '1.'); // a code-server version
  return spec;
}

async function main(): Promise<number> {
  const version = vscodeVersion();
  console.log(`[integration:electron] VS Code ${version}`);
  try {
    await runTests({
      version,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(repoRoot, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [fixtureWorkspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
      extensionTestsEnv: {
        SPOT_IMPORT_TEST: '1',
        SPOT_TEST_COLOR: process.stdout.isTTY && !process.env.NO_COLOR ? '1' : '0',
        ...(process.env.SPOT_TEST_GREP ? { SPOT_TEST_GREP: process.env.SPOT_TEST_GREP } : {}),
      },
    });
    return 0;
  } catch (error) {
    console.error(`[integration:electron] ${(error as Error).message ?? String(error)}`);
    console.error('[integration:electron] (this launcher downloads VS Code; without internet use npm run test:integration)');
    return 1;
  }
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
