// Sign Out: forgets the active profile's client credentials and every cached token. For the
// sandbox this means new credentials (and a restart) on next use.
import * as vscode from 'vscode';
import { noActiveProfileError } from '../platform/errors';
import type { ExtensionServices } from '../platform/services';
import { profileLabel } from '../platform/domain';

export async function signOut(services: ExtensionServices): Promise<void> {
  const profile = services.profiles.active();
  if (!profile) throw noActiveProfileError();
  services.clients.forget(profile.id);
  await services.credentials.delete(profile.id);
  const next =
    profile.kind === 'sandbox'
      ? vscode.l10n.t('It gets new credentials the next time it is used.')
      : vscode.l10n.t('Run Set Client Credentials to sign in again.');
  void services.ui.showInformationMessage(`${vscode.l10n.t('Signed out of {0}: its credentials and tokens are forgotten.', profileLabel(profile))} ${next}`);
}
