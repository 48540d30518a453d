// All traffic goes over https, except to this machine: the local sandbox and test servers.
import { ServiceError } from './errors';

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOST.test(url.hostname) || url.hostname === '::1';
}

/** Parses and checks a service URL; http is refused unless the host is loopback. */
export function requireSecureUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError('configuration', `The ${what} "${raw}" is not a valid URL.`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackUrl(url)) return url;
  throw new ServiceError(
    'configuration',
    `The ${what} ${url.origin} must use https (http is allowed only for localhost and 127.0.0.1).`,
  );
}

/** Joins a base URL and a path without doubling or dropping slashes. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
}
