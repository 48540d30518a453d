// `npm start` sets SPOT_IMPORT_OPEN_WALKTHROUGH=1: the window it opens shows the walkthrough first.
// (A user who installs the .vsix gets it from VS Code itself, which opens a new extension's
// walkthrough once.)
import * as vscode from 'vscode';
import { walkthroughFullId } from './ids';

/**
 * VS Code registers an extension's walkthroughs after asking its experiment service about them,
 * and offline (code-server here) it gives up on that only after 5 s; asked earlier, it opens its
 * own walkthrough instead. So the request waits a little longer than that.
 */
const REGISTRATION_GRACE_MS = 6_000;

export function openWalkthroughOnStart(context: vscode.ExtensionContext): void {
  if (process.env.SPOT_IMPORT_OPEN_WALKTHROUGH !== '1') return;
  const timer = setTimeout(() => {
    void vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughFullId(context.extension.id), false);
  }, REGISTRATION_GRACE_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
}
