// Test Connection: asks the token endpoint for a new token with the active profile's credentials
// and says how long it lasts. The token itself is never shown or logged.
import { withCancellableProgress } from '../platform/cancellation';
import type { ExtensionServices } from '../platform/services';
import { profileLabel } from '../platform/domain';

export function describeLifetime(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds >= 120) return `${Math.round(seconds / 60)} minutes`;
  return `${seconds} seconds`;
}

export async function testConnection(services: ExtensionServices): Promise<void> {
  const { profile, token } = await withCancellableProgress({ title: 'Spot Import: getting a token…' }, (_progress, signal) => services.clients.freshToken(signal));
  const lifetime = describeLifetime(token.lifetimeSeconds);
  const how = token.fromServer
    ? `the token is valid for ${lifetime}`
    : `the server sent no token lifetime, so ${lifetime} is assumed (setting spotImport.assumedTokenLifetimeSeconds)`;
  services.log.info('auth', `token issued for ${profileLabel(profile)}: ${how}`);
  void services.ui.showInformationMessage(`Connected to ${profileLabel(profile)}: the credentials work and ${how}.`);
}
