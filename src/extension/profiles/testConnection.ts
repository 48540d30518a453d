// Test Connection: asks the token endpoint for a new token with the active profile's credentials
// and says how long it lasts. The token itself is never shown or logged.
import * as vscode from 'vscode';
import { withCancellableProgress } from '../platform/cancellation';
import type { ExtensionServices } from '../platform/services';
import { profileLabel } from '../platform/domain';

function describeLifetime(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? vscode.l10n.t('1 hour') : vscode.l10n.t('{0} hours', seconds / 3600);
  if (seconds >= 120) return vscode.l10n.t('{0} minutes', Math.round(seconds / 60));
  return vscode.l10n.t('{0} seconds', seconds);
}

export async function testConnection(services: ExtensionServices): Promise<void> {
  const { profile, token } = await withCancellableProgress({ title: vscode.l10n.t('Spot Import: getting a token…') }, (_progress, signal) =>
    services.clients.freshToken(signal),
  );
  const lifetime = describeLifetime(token.lifetimeSeconds);
  const how = token.fromServer
    ? `the token is valid for ${lifetime}`
    : `the server sent no token lifetime, so ${lifetime} is assumed (setting spotImport.assumedTokenLifetimeSeconds)`;
  services.log.info('auth', `token issued for ${profileLabel(profile)}: ${how}`);
  void services.ui.showInformationMessage(
    token.fromServer
      ? vscode.l10n.t('Connected to {0}: the credentials work and the token is valid for {1}.', profileLabel(profile), lifetime)
      : vscode.l10n.t(
          'Connected to {0}: the credentials work and the server sent no token lifetime, so {1} is assumed (setting spotImport.assumedTokenLifetimeSeconds).',
          profileLabel(profile),
          lifetime,
        ),
  );
}
