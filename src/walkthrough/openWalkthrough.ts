// Open the Walkthrough (the empty Galleries view's button, and `npm start`).
//
// VS Code's walkthroughs service starts with the first Welcome page of a window and registers
// extensions' walkthroughs only after asking its experiment service about them; offline
// (code-server) that takes 5 s or more. A walkthrough asked for before then is not found, and VS
// Code shows one of its own instead, in a Welcome tab that then ignores further requests. So the
// first request of a window is followed, once the service has had time, by closing that Welcome
// tab and asking again, unless the user has moved on meanwhile (another tab active, or tabs
// opened or closed): nothing tells which walkthrough a Welcome tab shows (VS Code labels every
// walkthrough page "Welcome", in English), and closing one the user works in would lose their place.
import * as vscode from 'vscode';
import { walkthroughFullId } from './ids';
import { BUILT_IN_COMMAND } from '../platform/commandIds';

const REGISTRATION_GRACE_MS = 8_000;
const WELCOME_TAB_LABEL = 'Welcome';

let askedBefore = false;

const isWelcome = (tab: vscode.Tab | undefined): tab is vscode.Tab => tab !== undefined && tab.input === undefined && tab.label === WELCOME_TAB_LABEL;

function welcomeTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs.filter(isWelcome));
}

export async function openWalkthrough(context: vscode.ExtensionContext): Promise<void> {
  const open = () => vscode.commands.executeCommand(BUILT_IN_COMMAND.openWalkthrough, walkthroughFullId(context.extension.id), false);
  const first = !askedBefore;
  askedBefore = true;
  await open();
  if (!first) return;
  let movedOn = false;
  const watch = vscode.Disposable.from(
    vscode.window.tabGroups.onDidChangeTabs((change) => (movedOn ||= change.opened.length > 0 || change.closed.length > 0)),
    vscode.window.tabGroups.onDidChangeTabGroups(() => (movedOn = true)),
  );
  await new Promise((resolve) => setTimeout(resolve, REGISTRATION_GRACE_MS));
  watch.dispose();
  if (movedOn || !isWelcome(vscode.window.tabGroups.activeTabGroup.activeTab)) return;
  await vscode.window.tabGroups.close(welcomeTabs(), true);
  await open();
}
