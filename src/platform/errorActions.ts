// The one policy from a failure to the buttons that fix it, for notifications (the command
// wrapper, run summaries) and the Galleries view's message nodes alike: an ActionableError's own
// actions, Open Settings for an untrusted certificate, Update Credentials (for the profile whose
// request failed, when known) for a refusal: credentials refused (401, or the token endpoint) or
// a request these credentials may not make (403).
import { ActionableError, OPEN_CA_SETTINGS, isAuthenticationError, isServiceError, profileOf, untrustedCertificateCode, type ErrorAction } from './errors';
import { COMMAND } from './commandIds';

export const SHOW_LOG = 'Show Log';
export const UPDATE_CREDENTIALS = 'Update Credentials';
export const SET_CREDENTIALS = 'Set Client Credentials';

/** Set Client Credentials for one profile (absent: the active one), after a refusal. */
export function updateCredentialsAction(profileId?: string): ErrorAction {
  return { title: UPDATE_CREDENTIALS, command: COMMAND.setCredentials, ...(profileId ? { args: [profileId] } : {}) };
}

/** Set Client Credentials for a profile that has none yet. */
export function setCredentialsAction(profileId: string): ErrorAction {
  return { title: SET_CREDENTIALS, command: COMMAND.setCredentials, args: [profileId] };
}

/**
 * Refused for a profile's credentials: not accepted (401, or the token endpoint), or not allowed
 * this (a 403 to a request that carried the profile's token: its client notes those). A file
 * host, which is sent no token, may answer 403 too; new credentials would not change that.
 */
export function isRefusal(error: unknown): boolean {
  if (isAuthenticationError(error)) return true;
  return isServiceError(error) && error.kind === 'http' && error.status === 403 && profileOf(error) !== undefined;
}

/**
 * What to offer for a failure, most specific first. `profileId`: the profile the failed work
 * used, when the caller knows it better than the error does.
 */
export function actionsFor(error: unknown, profileId?: string): ErrorAction[] {
  const actions: ErrorAction[] = error instanceof ActionableError ? [...error.actions] : [];
  if (untrustedCertificateCode(error)) actions.push(OPEN_CA_SETTINGS);
  if (isRefusal(error)) actions.push(updateCredentialsAction(profileOf(error) ?? profileId));
  return actions;
}
