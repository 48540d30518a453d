// Open the Walkthrough (the empty Galleries view's button, and `npm start`).
//
// VS Code's walkthroughs service starts with the first Welcome page of a window and registers
// extensions' walkthroughs only after asking its experiment service about them; offline
// (code-server) that takes 5 s or more. A walkthrough asked for before then is not found, and VS
// Code shows one of its own instead, in a Welcome tab that then ignores further requests. So the
// first request of a window is followed, once the service has had time, by closing that Welcome
// tab and asking again. Its tab's label is the only sign of which walkthrough it shows, and VS Code
// labels every walkthrough page "Welcome" (in English).
import * as vscode from 'vscode';
import { walkthroughFullId } from './ids';

const REGISTRATION_GRACE_MS = 8_000;
const WELCOME_TAB_LABEL = 'Welcome';

let askedBefore = false;

function welcomeTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs.filter((tab) => tab.input === undefined && tab.label === WELCOME_TAB_LABEL));
}

export async function openWalkthrough(context: vscode.ExtensionContext): Promise<void> {
  const open = () => vscode.commands.executeCommand('workbench.action.openWalkthrough', walkthroughFullId(context.extension.id), false);
  const first = !askedBefore;
  askedBefore = true;
  await open();
  if (!first) return;
  await new Promise((resolve) => setTimeout(resolve, REGISTRATION_GRACE_MS));
  const tabs = welcomeTabs();
  if (tabs.length === 0) return; // closed meanwhile: the user has moved on
  await vscode.window.tabGroups.close(tabs, true);
  await open();
}
