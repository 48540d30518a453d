// Turns an error from the core (or from getting a client) into the short words of a message node
// and the one action most likely to fix it. Duck-typed on `kind`/`status` because the core is
// loaded lazily: its classes are not available here as values.
import type * as Core from '../core';
import { actionsFor, updateCredentialsAction } from '../platform/errorActions';
import { OPEN_CA_SETTINGS, UNTRUSTED_CERTIFICATE_ADVICE, untrustedCertificateCode } from '../platform/errors';
import { COMMAND } from '../platform/commandIds';

export interface FailureHint {
  title: string;
  command: string;
  /** When true the command receives the gallery node, so it acts on the right gallery. */
  passNode?: boolean;
  args?: unknown[];
}

export interface FailureDescription {
  message: string;
  detail: string;
  hint: FailureHint;
}

const RETRY: FailureHint = { title: 'Retry', command: COMMAND.refreshGallery, passNode: true };
/** A setting of the profile is wrong (its address, say): new credentials would not help. */
const SWITCH_PROFILE: FailureHint = { title: 'Switch Profile…', command: COMMAND.switchProfile };

function asServiceError(error: unknown): Partial<Core.ServiceError> & { message: string } {
  if (error && typeof error === 'object') return error as Partial<Core.ServiceError> & { message: string };
  return { message: String(error) };
}

/** An ActionableError (from the extension layer, e.g. "no credentials yet") names its own fix. */
function ownAction(error: unknown): FailureHint | undefined {
  const actions = (error as { actions?: Array<{ title?: unknown; command?: unknown; args?: unknown }> } | undefined)?.actions;
  const first = Array.isArray(actions) ? actions[0] : undefined;
  if (typeof first?.title !== 'string' || typeof first.command !== 'string') return undefined;
  return { title: first.title, command: first.command, args: Array.isArray(first.args) ? first.args : [] };
}

export function describeFailure(error: unknown): FailureDescription {
  const failure = asServiceError(error);
  const words = failure.serverMessage ?? failure.message ?? 'unknown error';
  const detail = failure.message ?? words;
  const own = ownAction(error);
  if (own && failure.kind === undefined) return { message: words, detail, hint: own };
  switch (failure.kind) {
    case 'authentication':
      // The notifications' policy (errorActions.ts): Update Credentials, for the refused profile.
      return { message: `Credentials rejected: ${words}`, detail, hint: actionsFor(error)[0] ?? updateCredentialsAction() };
    case 'configuration':
      // A bad address, gallery id or file: the profile (or the view's entry) needs changing, and
      // the detail is in the node's tooltip and the log.
      return { message: words, detail, hint: SWITCH_PROFILE };
    case 'network':
      if (untrustedCertificateCode(error)) {
        const hint: FailureHint = actionsFor(error)[0] ?? OPEN_CA_SETTINGS;
        return { message: `Certificate not trusted: ${words}`, detail: `${detail} ${UNTRUSTED_CERTIFICATE_ADVICE}`, hint };
      }
      return { message: `Service not reachable: ${words}`, detail, hint: RETRY };
    case 'timeout':
      return { message: `Service not reachable: ${words}`, detail, hint: RETRY };
    case 'cancelled':
      return { message: 'Loading was cancelled', detail, hint: RETRY };
    case 'malformed':
      return { message: `Unexpected reply: ${words}`, detail, hint: RETRY };
    case 'http':
      if (failure.status === 404) {
        return {
          // Shown under the gallery's own row, so the words need not repeat its id.
          message: `Not found (404): ${words}`,
          detail,
          hint: { title: 'Remove from View', command: COMMAND.removeGallery, passNode: true },
        };
      }
      // A 401 arrives as 'authentication' (above); a 403 is the same refusal for errorActions.
      if (failure.status === 403) {
        return { message: `Access denied (403): ${words}`, detail, hint: actionsFor(error)[0] ?? updateCredentialsAction() };
      }
      return { message: `Service answered ${failure.status ?? 'an error'}: ${words}`, detail, hint: RETRY };
    default:
      return { message: words, detail, hint: RETRY };
  }
}
