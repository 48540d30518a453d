// The virtual-workspace suite's entry: the code-server launcher opens the fixture workspace served
// under spotvfs: by a test-only file system extension (launchers/codeServer.ts, VIRTUAL_SUITE), and
// VS Code loads this module as extensionTestsPath.
import { runSuite } from '../index';

export function run(): Promise<void> {
  return runSuite(__dirname);
}
