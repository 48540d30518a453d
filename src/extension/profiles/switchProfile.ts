// Switch Profile (also the status bar item's click): a quick pick of every profile with its
// state, plus "Add Profile…". A profile id argument (from a button) switches without asking.
import * as vscode from 'vscode';
import { required } from '../platform/cancellation';
import { PROFILE_STATE_TEXT } from './auth/profileStatus';
import type { ExtensionServices } from '../platform/services';
import { profileLabel, type Profile } from '../platform/domain';
import { addProfile } from './addProfile';

interface ProfileItem extends vscode.QuickPickItem {
  profile?: Profile;
}

export async function switchProfile(services: ExtensionServices, profileId?: unknown): Promise<void> {
  const { profiles } = services;
  if (typeof profileId === 'string') {
    await profiles.setActive(profileId);
    services.log.info('auth', `active profile: ${profileId}`);
    return;
  }
  const active = profiles.active();
  const items: ProfileItem[] = await Promise.all(
    profiles.list().map(async (profile) => ({
      label: `${profile.id === active?.id ? '$(check) ' : ''}${profileLabel(profile)}`,
      description: profile.kind === 'sandbox' ? vscode.l10n.t('runs on this machine, offline') : profile.baseUrl,
      detail: `API ${profile.apiVersion}${profile.topicId !== undefined ? ` · ${vscode.l10n.t('topic {0}', profile.topicId)}` : ''} · ${PROFILE_STATE_TEXT[await profiles.state(profile)].words}`,
      profile,
    })),
  );
  items.push({ label: `$(add) ${vscode.l10n.t('Add Profile…')}`, alwaysShow: true });
  const picked = required(
    await services.ui.showQuickPick(items, {
      title: vscode.l10n.t('Switch Spot Import profile'),
      placeHolder: vscode.l10n.t('Profile to use for imports, uploads and galleries'),
    }),
  );
  if (!picked.profile) {
    await addProfile(services);
    return;
  }
  await profiles.setActive(picked.profile.id);
  services.log.info('auth', `active profile: ${profileLabel(picked.profile)}`);
}
