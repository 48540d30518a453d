// Turns what undici throws into a ServiceError a person can act on.
import { CancelledError, ServiceError } from './errors';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export function toServiceError(error: unknown, what: string, host: string, signal?: AbortSignal): ServiceError {
  if (error instanceof ServiceError) return error;
  if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) return new CancelledError();
  const code = (error as { code?: string } | undefined)?.code ?? '';
  if (TIMEOUT_CODES.has(code)) {
    return new ServiceError('timeout', `${what} timed out waiting for ${host}. Check the connection or try again.`, { cause: error });
  }
  const reason = describeNetworkCode(code) ?? (error instanceof Error ? error.message : String(error));
  return new ServiceError('network', `${what} could not reach ${host}: ${reason}`, { cause: error });
}

function describeNetworkCode(code: string): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (is the server running?).';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'the connection was dropped before a reply arrived.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved.';
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return `its certificate was not accepted (${code}); check http.proxyStrictSSL or add the CA certificate.`;
    default:
      return undefined;
  }
}

/** Waits for a shared promise, but lets one caller stop waiting without cancelling it for others. */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
