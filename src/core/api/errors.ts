// Typed failures of the service core. Every message is written for a person: it names what went
// wrong, the server's own words when there are some, and never a token or a secret.

export type ServiceErrorKind =
  | 'authentication'
  | 'http'
  | 'network'
  | 'timeout'
  | 'malformed'
  | 'cancelled'
  | 'configuration';

export class ServiceError extends Error {
  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    readonly details: { status?: number; serverMessage?: string; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message);
    this.name = 'ServiceError';
  }
  get status(): number | undefined {
    return this.details.status;
  }
  get serverMessage(): string | undefined {
    return this.details.serverMessage;
  }
}

/** The credentials were refused (invalid_client), or a renewed token was refused again. */
export class AuthenticationError extends ServiceError {
  constructor(message: string, details: ServiceError['details'] = {}) {
    super('authentication', message, details);
    this.name = 'AuthenticationError';
  }
}

/** The caller's AbortSignal fired. UIs stay silent about these. */
export class CancelledError extends ServiceError {
  constructor(message = 'Cancelled.') {
    super('cancelled', message);
    this.name = 'CancelledError';
  }
}

/** The server answered, but not in the shape the interface promises. */
export class MalformedReplyError extends ServiceError {
  constructor(what: string, problem: string, status?: number) {
    super('malformed', `The server sent an unexpected reply to ${what}: ${problem}`, { status });
    this.name = 'MalformedReplyError';
  }
}

export function isCancellation(error: unknown): boolean {
  return error instanceof CancelledError || (error instanceof Error && error.name === 'AbortError');
}

/** Throws CancelledError when the signal has fired: call it between steps of long work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}
