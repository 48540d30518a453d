// Credentials travel only over https, except to this machine (the local sandbox, test servers).
// Checked when a profile is entered, so the input box can say what is wrong before anything is
// saved; the core checks again before every request.

const LOOPBACK_IPV4 = /^127(?:\.\d{1,3}){3}$/;

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || host === '::1' || LOOPBACK_IPV4.test(host);
}

/** undefined when the URL may carry credentials; otherwise the reason, phrased for an input box. */
export function checkServiceUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return 'Enter a full URL, for example https://api.example.org';
  }
  if (url.username || url.password) return 'Leave user names and passwords out of the URL: credentials go in Set Client Credentials.';
  if (url.search || url.hash) return 'Enter the address without a query or fragment.';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return isLoopbackHost(url.hostname) ? undefined : 'Use https: plain http is allowed only for localhost and 127.0.0.1.';
  }
  return 'Use an https:// address.';
}

/** The URL without a trailing slash, so derived paths never double it. */
export function normalizeUrl(raw: string): string {
  return raw.trim().replace(/\/+$/, '');
}

/** {baseUrl}/api/v2/access_token: the token path the interface documents. */
export function derivedTokenUrl(baseUrl: string): string {
  return `${normalizeUrl(baseUrl)}/api/v2/access_token`;
}

export const API_VERSION_PATTERN = /^v\d+(?:\.\d+)*$/;
