// How a failure of a single-request command (token, gallery, and the token check before an import
// or upload) maps to an exit code. The job cannot be done at all when the credentials, the address
// or the connection are wrong: 2. The service answered, but refused this one request: 1.
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

/** Before any document is sent: a token, or the reason no run can work (exit 2 whatever the cause). */
export async function checkCredentials(tokens: { getToken(signal?: AbortSignal): Promise<unknown> }, signal?: AbortSignal): Promise<void> {
  try {
    await tokens.getToken(signal);
  } catch (error) {
    const failure = toCliError(error);
    throw failure.exitCode === EXIT.interrupted ? failure : new CliError(`Nothing was sent. ${failure.message}`, EXIT.usage);
  }
}
