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

/** The setting of extra CA certificates (httpOptions reads it; spelled out so no vscode is needed here). */
export const CA_CERTIFICATES_SETTING = 'spotImport.caCertificates';

/** TLS verification codes that mean: the chain ends in a certificate authority this process does not trust. */
const UNTRUSTED_CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/**
 * The TLS code when a request failed because the server's certificate is not signed by a trusted
 * authority (a company CA, a proxy that inspects https), read through the causes: the core keeps
 * undici's error as `details.cause`.
 */
export function untrustedCertificateCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNTRUSTED_CERTIFICATE_CODES.has(code)) return code;
    const holder = current as { cause?: unknown; details?: { cause?: unknown } };
    current = holder.cause ?? holder.details?.cause;
  }
  return undefined;
}

/** What to do about an untrusted certificate, in the words every message about one ends with. */
export const UNTRUSTED_CERTIFICATE_ADVICE =
  `The server's certificate is not signed by a certificate authority trusted here: if the service (or a proxy on the way) uses your organisation's own, add that authority's certificate (a PEM file) to the setting ${CA_CERTIFICATES_SETTING}.`;

/** The button that opens the setting, for notifications about an untrusted certificate. */
export const OPEN_CA_SETTINGS: ErrorAction = { title: 'Open Settings', command: 'workbench.action.openSettings', args: [CA_CERTIFICATES_SETTING] };

/** One line for a notification: the error's own words, plus the status and server text if missing. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let message = error.message.trim() || error.name;
  if (isServiceError(error)) {
    if (error.serverMessage && !message.includes(error.serverMessage)) message = `${message.replace(/\.$/, '')}: ${error.serverMessage}`;
    if (error.status !== undefined && !message.includes(String(error.status))) message = `${message} (HTTP ${error.status})`;
  }
  if (untrustedCertificateCode(error) && !message.includes(CA_CERTIFICATES_SETTING)) {
    message = `${/[.!?]$/.test(message) ? message : `${message}.`} ${UNTRUSTED_CERTIFICATE_ADVICE}`;
  }
  return message;
}
