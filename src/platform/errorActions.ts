// The one policy from a failure to the buttons that fix it, for notifications (the command
// wrapper, run summaries) and the Galleries view's message nodes alike: an ActionableError's own
// actions, Open Settings for an untrusted certificate, Update Credentials (for the profile whose
// credentials were refused, when known) for a refusal.
import { ActionableError, OPEN_CA_SETTINGS, isAuthenticationError, refusedProfileOf, untrustedCertificateCode, type ErrorAction } from './errors';
import { COMMAND } from './commandIds';

export const SHOW_LOG = 'Show Log';
export const UPDATE_CREDENTIALS = 'Update Credentials';

/** Set Client Credentials for one profile (absent: the active one). */
export function updateCredentialsAction(profileId?: string): ErrorAction {
  return { title: UPDATE_CREDENTIALS, command: COMMAND.setCredentials, ...(profileId ? { args: [profileId] } : {}) };
}

/**
 * What to offer for a failure, most specific first. `profileId`: the profile the failed work
 * used, when the caller knows it better than the error does.
 */
export function actionsFor(error: unknown, profileId?: string): ErrorAction[] {
  const actions: ErrorAction[] = error instanceof ActionableError ? [...error.actions] : [];
  if (untrustedCertificateCode(error)) actions.push(OPEN_CA_SETTINGS);
  if (isAuthenticationError(error)) actions.push(updateCredentialsAction(refusedProfileOf(error) ?? profileId));
  return actions;
}
