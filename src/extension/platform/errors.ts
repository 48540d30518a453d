// Errors raised by the extension layer that tell the user what to do next. The command wrapper
// turns `actions` into buttons; core errors (ServiceError) are recognised by their `kind`.
// Everything here that makes text for a person passes the redactor the log uses. No vscode here
// (unit tests read describeError): the words go through the core's l10n, which has VS Code's
// bundle from activation on.
import { untrustedCertificateCode } from '../../core/api/certificates';
import type { RequestSent } from '../../core/api/errors';
import { l10n } from '../../core/text/l10n';
import { SANDBOX_PROFILE_ID } from './domain';
import { redactForDisplay } from './redact';
import { BUILT_IN_COMMAND, COMMAND } from './commandIds';

export { untrustedCertificateCode };

export interface ErrorAction {
  title: string;
  command: string;
  args?: unknown[];
}

export class ActionableError extends Error {
  /** `severity`: 'warning' for what is not a failure but a state the user can change (Restricted Mode). */
  constructor(
    message: string,
    readonly actions: ErrorAction[] = [],
    readonly severity: 'error' | 'warning' = 'error',
  ) {
    super(message);
    this.name = 'ActionableError';
  }
}

/** What every command that needs a profile says when none is active, with the two ways out. */
export function noActiveProfileError(): ActionableError {
  return new ActionableError(l10n.t('No Spot Import profile is selected. Add one for your service, or try the local sandbox.'), [
    { title: l10n.t('Add Profile'), command: COMMAND.addProfile },
    { title: l10n.t('Use Local Sandbox'), command: COMMAND.switchProfile, args: [SANDBOX_PROFILE_ID] },
  ]);
}

/** The shape of the core's ServiceError, read structurally so the core need not be loaded. */
export interface ServiceErrorLike extends Error {
  kind: string;
  status?: number;
  serverMessage?: string;
  /** How far an upload got (uploads only; absent: nothing was sent). */
  requestSent?: RequestSent;
}

export function isServiceError(error: unknown): error is ServiceErrorLike {
  return error instanceof Error && typeof (error as { kind?: unknown }).kind === 'string';
}

export function isAuthenticationError(error: unknown): boolean {
  return isServiceError(error) && error.kind === 'authentication';
}

/**
 * Whose request failed. The error itself cannot say (the core knows no profiles): the client
 * provider notes it for a refusal by a profile's token endpoint and for each failure of a request
 * its client sends, so a message's Update Credentials button asks for that profile's, whichever
 * one is active by then.
 */
const failedProfiles = new WeakMap<object, string>();

export function noteProfileOf(error: unknown, profileId: string): void {
  if (error && typeof error === 'object') failedProfiles.set(error, profileId);
}

export function profileOf(error: unknown): string | undefined {
  return error && typeof error === 'object' ? failedProfiles.get(error) : undefined;
}

/** The setting of extra CA certificates (httpOptions reads it; spelled out so no vscode is needed here). */
export const CA_CERTIFICATES_SETTING = 'spotImport.caCertificates';

/** What to do about an untrusted certificate, in the words every message about one ends with (in the display language). */
export function untrustedCertificateAdvice(): string {
  return l10n.t(
    "The server's certificate is not signed by a certificate authority trusted here: if the service (or a proxy on the way) uses your organisation's own, add that authority's certificate (a PEM file) to the setting {0}.",
    CA_CERTIFICATES_SETTING,
  );
}

/** The button that opens the setting, for notifications about an untrusted certificate (its title read when shown). */
export const OPEN_CA_SETTINGS: ErrorAction = {
  get title() {
    return l10n.t('Open Settings');
  },
  command: BUILT_IN_COMMAND.openSettings,
  args: [CA_CERTIFICATES_SETTING],
};

/**
 * One line for a notification: the error's own words, plus the status and server text if missing,
 * scrubbed of every registered secret and credential shape (as the log is).
 */
export function describeError(error: unknown): string {
  return redactForDisplay(describeUnredacted(error));
}

function describeUnredacted(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let message = error.message.trim() || error.name;
  if (isServiceError(error)) {
    if (error.serverMessage && !message.includes(error.serverMessage)) message = `${message.replace(/\.$/, '')}: ${error.serverMessage}`;
    if (error.status !== undefined && !message.includes(String(error.status))) message = `${message} (HTTP ${error.status})`;
  }
  if (untrustedCertificateCode(error) && !message.includes(CA_CERTIFICATES_SETTING)) {
    message = `${/[.!?]$/.test(message) ? message : `${message}.`} ${untrustedCertificateAdvice()}`;
  }
  return message;
}
