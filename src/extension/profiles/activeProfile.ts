// The profile a command will talk to, known before any client is built: the progress
// notification can then name it while the client (and, for the sandbox profile, the local
// sandbox) starts inside the notification, where the user sees it and can cancel.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../platform/services';
import type { Profile } from '../platform/domain';

/**
 * The active profile, or a rejection with the client provider's own "no profile selected" error.
 * (Gallery commands that need the profile without a client use `requireActiveProfile`.)
 */
export function activeProfile(services: ExtensionServices): Promise<Profile> {
  const profile = services.profiles.active();
  // Without one, client() throws the error that offers Add Profile and the local sandbox.
  return profile ? Promise.resolve(profile) : services.clients.client().then((built) => built.profile);
}

/** The first client of the sandbox profile starts the sandbox: say so instead of a silent wait. */
export function startingMessage(profile: Profile): string | undefined {
  return profile.kind === 'sandbox' && !profile.baseUrl ? vscode.l10n.t('Starting the local sandbox…') : undefined;
}
