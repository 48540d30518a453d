// Open the Walkthrough (the empty Galleries view's button, and `npm start`).
//
// VS Code's walkthroughs service starts with the first Welcome page of a window and registers
// extensions' walkthroughs only after asking its experiment service about them; offline
// (code-server) that takes 5 s or more. A walkthrough asked for before then is not found.
//
// Newer VS Code (1.139 seen): the Welcome page keeps the walkthrough asked for and shows it as soon
// as it is registered (its editor looks again when walkthroughs are added). Nothing more to do, and
// nothing must be closed: there the page of this walkthrough is a tab labelled "Welcome" too, and
// closing it (then asking again) left VS Code's Welcome overview in its place. The boundary, 1.104,
// is the release of microsoft/vscode PR #264197, which rewrote the command this way; only 1.100 and
// 1.139 are tested.
//
// Before 1.104 (1.100 is the oldest supported): VS Code shows one of its own walkthroughs instead,
// in a Welcome tab that then ignores further requests. So the first request of a window is
// followed, once the service has had time, by closing that Welcome tab and asking again, unless the
// user has moved on meanwhile (another tab active, or tabs opened or closed): nothing tells which
// walkthrough a Welcome tab shows (the tab reads "Welcome" to extensions), and closing one the user
// works in would lose their place.
import * as vscode from 'vscode';
import { walkthroughFullId } from './ids';
import { BUILT_IN_COMMAND } from '../platform/commandIds';

const REGISTRATION_GRACE_MS = 8_000;
/**
 * VS Code's Welcome tab, by its label in the display languages the extension speaks (VS Code
 * offers no language-free way to tell the tab: its input is of no public type).
 */
const WELCOME_TAB_LABELS = new Set(['Welcome', 'Willkommen']);
/** The first VS Code whose Welcome page shows a walkthrough registered after it was asked for. */
const SHOWS_LATE_WALKTHROUGHS = { major: 1, minor: 104 };

let askedBefore = false;

const isWelcome = (tab: vscode.Tab | undefined): tab is vscode.Tab => tab !== undefined && tab.input === undefined && WELCOME_TAB_LABELS.has(tab.label);

function welcomeTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs.filter(isWelcome));
}

/** True for VS Code versions (e.g. "1.100.3") whose Welcome tab ignores a second request. */
function welcomeIgnoresLateWalkthroughs(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  if (!Number.isInteger(major) || !Number.isInteger(minor)) return false;
  return major < SHOWS_LATE_WALKTHROUGHS.major || (major === SHOWS_LATE_WALKTHROUGHS.major && minor < SHOWS_LATE_WALKTHROUGHS.minor);
}

export async function openWalkthrough(context: vscode.ExtensionContext): Promise<void> {
  const open = () => vscode.commands.executeCommand(BUILT_IN_COMMAND.openWalkthrough, walkthroughFullId(context.extension.id), false);
  const first = !askedBefore;
  askedBefore = true;
  await open();
  if (!first || !welcomeIgnoresLateWalkthroughs(vscode.version)) return;
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
