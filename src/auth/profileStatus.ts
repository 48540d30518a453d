// The active profile at a glance: a status bar item (click to switch) and the context keys that
// the welcome view and menus read. Both follow the profile store, which itself follows
// credential changes from any window.
import * as vscode from 'vscode';
import type { Logger } from '../platform/services';
import { profileLabel, type ProfileState, type ProfileStore } from '../platform/domain';
import type { DisposableStore } from '../platform/lifecycle';
import { BUILT_IN_COMMAND, COMMAND } from '../platform/commandIds';

export const CONTEXT_HAS_PROFILE = 'spotImport.hasProfile';
export const CONTEXT_HAS_CREDENTIALS = 'spotImport.hasCredentials';

/** How a profile's state is shown everywhere (status bar, Switch Profile). */
export const PROFILE_STATE_TEXT: Readonly<Record<ProfileState, { icon: string; words: string }>> = {
  noCredentials: { icon: '$(key)', words: 'no credentials' },
  ready: { icon: '$(cloud)', words: 'ready' },
  rejected: { icon: '$(error)', words: 'credentials rejected' },
};

/** `log`: where a failed update is reported (the extension passes its Logger; without one, the console). */
export function registerProfileStatus(disposables: DisposableStore, profiles: ProfileStore, log?: Logger): void {
  const item = vscode.window.createStatusBarItem('spotImport.profile', vscode.StatusBarAlignment.Left, 20);
  item.name = 'Spot Import Profile';
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
      item.text = '$(cloud) Spot: no profile';
      item.tooltip = 'Spot Import: no profile selected. Click to pick one or add one.';
      item.backgroundColor = undefined;
    } else {
      const label = profileLabel(profile);
      const { icon, words } = PROFILE_STATE_TEXT[state];
      item.text = state === 'ready' ? `${icon} Spot: ${label}` : `${icon} Spot: ${label} (${words})`;
      const tooltip = new vscode.MarkdownString(`**Spot Import profile:** ${label}  \n`);
      tooltip.appendText(`${profile.baseUrl || 'starts on first use'} · API ${profile.apiVersion} · ${words}`);
      tooltip.appendMarkdown('\n\nClick to switch profile.');
      item.tooltip = tooltip;
      item.backgroundColor = state === 'rejected' ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : state === 'noCredentials' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
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
