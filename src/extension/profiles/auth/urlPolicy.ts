// Credentials travel only over https, except to this machine (the local sandbox, test servers).
// Checked when a profile is entered, so the input box can say what is wrong before anything is
// saved; the core checks again before every request (requireSecureUrl), with the same loopback
// rule: it is imported from the core's secureUrl.ts, which is tiny and dependency-free, so it
// costs nothing at activation. The token URL derived from a base URL is the core's
// defaultTokenUrl (tokenSource.ts pulls in undici, so callers get it from the lazily loaded core).
import * as vscode from 'vscode';
import { isLoopbackUrl } from '../../../core/api/secureUrl';

/** undefined when the URL may carry credentials; otherwise the reason, phrased for an input box. */
export function checkServiceUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return vscode.l10n.t('Enter a full URL, for example https://api.example.org');
  }
  if (url.username || url.password) return vscode.l10n.t('Leave user names and passwords out of the URL: credentials go in Set Client Credentials.');
  if (url.search || url.hash) return vscode.l10n.t('Enter the address without a query or fragment.');
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return isLoopbackUrl(url) ? undefined : vscode.l10n.t('Use https: plain http is allowed only for localhost and 127.0.0.1.');
  }
  return vscode.l10n.t('Use an https:// address.');
}

/** The URL without a trailing slash, so derived paths never double it. */
export function normalizeUrl(raw: string): string {
  return raw.trim().replace(/\/+$/, '');
}
