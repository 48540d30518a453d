// Errors raised by the extension layer that tell the user what to do next. The command wrapper
// turns `actions` into buttons; core errors (ServiceError) are recognised by their `kind`.

export interface ErrorAction {
  title: string;
  command: string;
  args?: unknown[];
}

export class ActionableError extends Error {
  constructor(message: string, readonly actions: ErrorAction[] = []) {
    super(message);
    this.name = 'ActionableError';
  }
}

/** The shape of the core's ServiceError, read structurally so the core need not be loaded. */
export interface ServiceErrorLike extends Error {
  kind: string;
  status?: number;
  serverMessage?: string;
}

export function isServiceError(error: unknown): error is ServiceErrorLike {
  return error instanceof Error && typeof (error as { kind?: unknown }).kind === 'string';
}

export function isAuthenticationError(error: unknown): boolean {
  return isServiceError(error) && error.kind === 'authentication';
}

/** One line for a notification: the error's own words, plus the status and server text if missing. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let message = error.message.trim() || error.name;
  if (isServiceError(error)) {
    if (error.serverMessage && !message.includes(error.serverMessage)) message = `${message.replace(/\.$/, '')}: ${error.serverMessage}`;
    if (error.status !== undefined && !message.includes(String(error.status))) message = `${message} (HTTP ${error.status})`;
  }
  return message;
}
