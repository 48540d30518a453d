// Asks for a profile's client credentials: the client id first, then the secret in a password
// box. Shared by Add Profile (right after the profile is made) and Set Client Credentials.
import * as vscode from 'vscode';
import { required } from '../../platform/cancellation';
import type { ExtensionServices } from '../../platform/services';
import { profileLabel, type Profile } from '../../platform/domain';

export async function promptAndStoreCredentials(services: ExtensionServices, profile: Profile): Promise<void> {
  const label = profileLabel(profile);
  const existing = await services.credentials.get(profile.id);
  const clientId = required(
    await services.ui.showInputBox({
      title: vscode.l10n.t('Client credentials for {0} (1/2)', label),
      prompt: vscode.l10n.t('Client id, as issued by the service operator (for example topic_37_api)'),
      value: existing?.clientId ?? '',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Enter the client id.')),
    }),
  ).trim();
  const clientSecret = required(
    await services.ui.showInputBox({
      title: vscode.l10n.t('Client credentials for {0} (2/2)', label),
      prompt: vscode.l10n.t("Client secret for {0}. It is kept in the system's secret storage, never in settings.", clientId),
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value ? undefined : vscode.l10n.t('Enter the client secret.')),
    }),
  );
  services.log.addSecret(clientSecret);
  await services.credentials.set(profile.id, { clientId, clientSecret });
  // Old tokens belong to the old credentials.
  services.clients.forget(profile.id);
}
