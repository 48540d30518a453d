// A photo's web address as the run treats it apart from fetching it: which addresses are fetched
// at all (https, or http on this machine: the rule every address of the project follows,
// secureUrl.ts), how messages, progress and the journal name one (never with its query, where
// tokens travel), and the name a fetched photo goes into its gallery with.
import { createHash } from 'node:crypto';
import { shownAddress } from '../../api/redact';
import { isLoopbackUrl } from '../../api/secureUrl';
import { extensionOf, mimeTypeOf } from '../../files/mimeType';

/** https, or http to this machine. */
export function isFetchable(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url));
}

/** The address as messages show it (api/redact.ts): without its query or login. */
export { shownAddress };

/**
 * How a run names the photo (messages, progress, the journal): shown, and when the address has a
 * query, a short hash of the whole address after it, so two addresses that differ only there
 * stay two photos without the query itself being written anywhere.
 */
export function addressLabel(address: string): string {
  const shown = shownAddress(address);
  return shown.endsWith('?…') ? `${shown}#${createHash('sha256').update(address).digest('hex').slice(0, 12)}` : shown;
}

/** The host an address names (its port too), or undefined for a text that is no address. */
export function hostOfAddress(address: string): string | undefined {
  try {
    return new URL(address).host;
  } catch {
    return undefined;
  }
}

/** The name a fetched photo goes into its gallery with: the address's last part ("IMG_1.jpg"), else "photo". */
export function addressFileName(address: string): string {
  const part = new URL(address).pathname.split('/').pop() ?? '';
  let last = part;
  try {
    last = decodeURIComponent(part);
  } catch {
    // A stray % stays as written.
  }
  return last.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_') || 'photo';
}

/** The name a fetched photo is stored under: its address's name, with the extension its bytes' type has when that name says another or none. */
export function fetchedFileName(name: string, type: string): string {
  const extension = mimeTypeOf(name) === type ? undefined : extensionOf(type);
  return extension ? `${name}.${extension}` : name;
}
