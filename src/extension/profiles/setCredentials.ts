// Set Client Credentials for the active profile (or the profile id passed by a button).
import * as vscode from 'vscode';
import { promptAndStoreCredentials } from './auth/promptCredentials';
import { noActiveProfileError } from '../platform/errors';
import type { ExtensionServices } from '../platform/services';
import { profileLabel } from '../platform/domain';

export async function setCredentials(services: ExtensionServices, profileId?: unknown): Promise<void> {
  const profile = typeof profileId === 'string' ? services.profiles.get(profileId) : services.profiles.active();
  if (!profile) throw noActiveProfileError();
  if (profile.kind === 'sandbox') {
    void services.ui.showInformationMessage(vscode.l10n.t('{0} makes its own credentials; there is nothing to set.', profileLabel(profile)));
    return;
  }
  await promptAndStoreCredentials(services, profile);
  void services.ui.showInformationMessage(vscode.l10n.t('Client credentials saved for {0}.', profileLabel(profile)));
}
