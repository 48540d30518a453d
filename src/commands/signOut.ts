// Sign Out: forgets the active profile's client credentials and every cached token. For the
// sandbox this means new credentials (and a restart) on next use.
import { noActiveProfileError } from '../platform/errors';
import type { ExtensionServices } from '../platform/services';
import { profileLabel } from '../platform/domain';

export async function signOut(services: ExtensionServices): Promise<void> {
  const profile = services.profiles.active();
  if (!profile) throw noActiveProfileError();
  services.clients.forget(profile.id);
  await services.credentials.delete(profile.id);
  const next = profile.kind === 'sandbox' ? 'It gets new credentials the next time it is used.' : 'Run Set Client Credentials to sign in again.';
  void services.ui.showInformationMessage(`Signed out of ${profileLabel(profile)}: its credentials and tokens are forgotten. ${next}`);
}
