// The active profile at a glance: a status bar item (click to switch) and the context keys that
// the welcome view and menus read. Both follow the profile store, which itself follows
// credential changes from any window.
import * as vscode from 'vscode';
import type { Logger } from '../../platform/services';
import { profileLabel, type ProfileState, type ProfileStore } from '../../platform/domain';
import type { DisposableStore } from '../../platform/lifecycle';
import { BUILT_IN_COMMAND, COMMAND } from '../../platform/commandIds';

const CONTEXT_HAS_PROFILE = 'spotImport.hasProfile';
const CONTEXT_HAS_CREDENTIALS = 'spotImport.hasCredentials';

/** How a profile's state is shown everywhere (status bar, Switch Profile); the words are read when shown, in the display language. */
export const PROFILE_STATE_TEXT: Readonly<Record<ProfileState, { icon: string; words: string }>> = {
  noCredentials: {
    icon: '$(key)',
    get words() {
      return vscode.l10n.t({ message: 'no credentials', args: [], comment: ["a profile's state: it has no client credentials yet"] });
    },
  },
  ready: {
    icon: '$(cloud)',
    get words() {
      return vscode.l10n.t({ message: 'ready', args: [], comment: ["a profile's state: its credentials are set (and were not refused)"] });
    },
  },
  rejected: {
    icon: '$(error)',
    get words() {
      return vscode.l10n.t({ message: 'credentials rejected', args: [], comment: ["a profile's state: the service refused its credentials"] });
    },
  },
};

/** `log`: where a failed update is reported (the extension passes its Logger; without one, the console). */
export function registerProfileStatus(disposables: DisposableStore, profiles: ProfileStore, log?: Logger): void {
  const item = vscode.window.createStatusBarItem('spotImport.profile', vscode.StatusBarAlignment.Left, 20);
  item.name = vscode.l10n.t('Spot Import Profile');
  item.command = COMMAND.switchProfile;
  let generation = 0;

  const update = async () => {
    // State reads SecretStorage (async); a newer update may overtake an older one.
    const mine = ++generation;
    const profile = profiles.active();
    const state = profile ? await profiles.state(profile) : undefined;
    if (mine !== generation) return;
    void vscode.commands.executeCommand(BUILT_IN_COMMAND.setContext, CONTEXT_HAS_PROFILE, profile !== undefined);
    void vscode.commands.executeCommand(BUILT_IN_COMMAND.setContext, CONTEXT_HAS_CREDENTIALS, state !== undefined && state !== 'noCredentials');
    if (!profile || !state) {
      item.text = vscode.l10n.t('$(cloud) Spot: no profile');
      item.tooltip = vscode.l10n.t('Spot Import: no profile selected. Click to pick one or add one.');
      item.backgroundColor = undefined;
    } else {
      const label = profileLabel(profile);
      const { icon, words } = PROFILE_STATE_TEXT[state];
      item.text = state === 'ready' ? `${icon} Spot: ${label}` : `${icon} Spot: ${label} (${words})`;
      const tooltip = new vscode.MarkdownString(`${vscode.l10n.t('**Spot Import profile:** {0}', label)}  \n`);
      const address =
        profile.baseUrl ||
        vscode.l10n.t({ message: 'starts on first use', args: [], comment: ['in place of the address of the local sandbox, before it has started'] });
      tooltip.appendText(`${address} · API ${profile.apiVersion} · ${words}`);
      tooltip.appendMarkdown(`\n\n${vscode.l10n.t('Click to switch profile.')}`);
      item.tooltip = tooltip;
      item.backgroundColor =
        state === 'rejected'
          ? new vscode.ThemeColor('statusBarItem.errorBackground')
          : state === 'noCredentials'
            ? new vscode.ThemeColor('statusBarItem.warningBackground')
            : undefined;
    }
    item.accessibilityInformation = { label: item.text.replace(/\$\([^)]+\)\s*/g, '') };
    item.show();
  };

  // Reading SecretStorage can fail (a locked keychain): say so in the log, keep the last text.
  const refresh = () => {
    update().catch((error: unknown) => {
      if (log) log.warn('auth', 'could not update the profile status', error);
      else console.warn('[Spot Import] could not update the profile status', error);
    });
  };
  disposables.push(
    item,
    profiles.onDidChange(refresh),
    // Profiles live in global state, which other windows may change without an event here: on
    // focus the store reads them again and tells every listener (Galleries view, CodeLens) if
    // they differ; the status bar also reads the credentials' state again.
    vscode.window.onDidChangeWindowState((state) => {
      if (!state.focused) return;
      profiles.refresh();
      refresh();
    }),
  );
  refresh();
}
