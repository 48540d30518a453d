// How a failure of a single-request command (gallery, the token check before an upload, the first
// token of an import, and `token`) maps to an exit code. The job cannot be done at all when the credentials,
// the address or the connection are wrong: 2. The service answered, but refused this one request:
// 1 — except a token request, which every other request needs (noTokenError: always 2).
import { ServiceError, isCancellation } from '../core';
import { CliError, EXIT } from './exit';

export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (isCancellation(error)) return new CliError('Interrupted.', EXIT.interrupted);
  if (error instanceof ServiceError) {
    const refusedThisRequest = error.kind === 'http' || error.kind === 'malformed';
    return new CliError(error.message, refusedThisRequest ? EXIT.failures : EXIT.usage);
  }
  throw error;
}

/**
 * No token: exit 2 whatever the cause (130 when interrupted). Even a reply the service "answered"
 * (a 404, an HTML sign-in page, an empty body) means the address or the credentials are wrong, so
 * nothing can be done; 1 is for documents. `prefix` says what that meant for the command.
 */
export function noTokenError(error: unknown, prefix = ''): CliError {
  const failure = toCliError(error);
  return failure.exitCode === EXIT.interrupted ? failure : new CliError(`${prefix}${failure.message}`, EXIT.usage);
}

/** The token for a command that needs one: resolves to it, or throws noTokenError's CliError. */
export async function getTokenOrFail<T>(tokens: { getToken(signal?: AbortSignal): Promise<T> }, signal?: AbortSignal, prefix = ''): Promise<T> {
  try {
    return await tokens.getToken(signal);
  } catch (error) {
    throw noTokenError(error, prefix);
  }
}

/** Before any document is sent: a token, or the reason no run can work (exit 2 whatever the cause). */
export async function checkCredentials(tokens: { getToken(signal?: AbortSignal): Promise<unknown> }, signal?: AbortSignal): Promise<void> {
  await getTokenOrFail(tokens, signal, 'Nothing was sent. ');
}
