// `npm start` sets SPOT_IMPORT_OPEN_WALKTHROUGH=1: the window it opens shows the walkthrough first.
// (A user who installs the .vsix gets it from VS Code itself, which opens a new extension's
// walkthrough once.)
import * as vscode from 'vscode';
import { openWalkthrough } from './openWalkthrough';

export function openWalkthroughOnStart(context: vscode.ExtensionContext): void {
  if (process.env.SPOT_IMPORT_OPEN_WALKTHROUGH !== '1') return;
  void openWalkthrough(context);
}
