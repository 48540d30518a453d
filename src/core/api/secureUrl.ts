// All traffic goes over https, except to this machine: the local sandbox and test servers.
import { ServiceError } from './errors';
import { redactUrlText } from './redact';
import { l10n } from '../text/l10n';

/**
 * This machine as a URL parser writes it: localhost and names under it, 127.0.0.0/8, 0.0.0.0 (a
 * connection there reaches this machine; the parser writes "0" so), IPv6's ::1 and :: and the
 * IPv4-mapped 127 addresses ([::ffff:7f00:1]). A name that resolves to this machine is not known here.
 */
const LOOPBACK_HOST = /^(localhost|.+\.localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/i;

export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK_HOST.test(url.hostname) || url.hostname === '::1';
}

/** The addresses the core checks, as its messages name them. */
export type ServiceUrlKind = 'base URL' | 'token URL' | 'media address' | 'media URL template address';

/** Parses and checks a service URL; http is refused unless the host is loopback. */
export function requireSecureUrl(raw: string, what: ServiceUrlKind): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ServiceError('configuration', notAUrl(what, redactUrlText(raw)));
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackUrl(url)) return url;
  throw new ServiceError('configuration', notHttps(what, url.origin));
}

function notAUrl(what: ServiceUrlKind, raw: string): string {
  switch (what) {
    case 'base URL':
      return l10n.t('The base URL "{0}" is not a valid URL.', raw);
    case 'token URL':
      return l10n.t('The token URL "{0}" is not a valid URL.', raw);
    case 'media address':
      return l10n.t('The media address "{0}" is not a valid URL.', raw);
    case 'media URL template address':
      return l10n.t('The media URL template address "{0}" is not a valid URL.', raw);
  }
}

function notHttps(what: ServiceUrlKind, origin: string): string {
  switch (what) {
    case 'base URL':
      return l10n.t('The base URL {0} must use https (http is allowed only for localhost and 127.0.0.1).', origin);
    case 'token URL':
      return l10n.t('The token URL {0} must use https (http is allowed only for localhost and 127.0.0.1).', origin);
    case 'media address':
      return l10n.t('The media address {0} must use https (http is allowed only for localhost and 127.0.0.1).', origin);
    case 'media URL template address':
      return l10n.t('The media URL template address {0} must use https (http is allowed only for localhost and 127.0.0.1).', origin);
  }
}

/** Joins a base URL and a path without doubling or dropping slashes. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
}
