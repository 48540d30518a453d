// The Restricted Mode suite's entry: the code-server launcher opens the fixture workspace with
// Workspace Trust on and the folder not trusted (launchers/codeServer.ts, UNTRUSTED_SUITE), and
// VS Code loads this module as extensionTestsPath. The other integration tests run in a trusted
// window of their own.
import { runSuite } from '../index';

export function run(): Promise<void> {
  return runSuite(__dirname);
}
