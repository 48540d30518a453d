// Where a media file can be fetched. The service names a file only by its stored name (the
// gallery reply's `file`); the platform serves the bytes from a separate files host, so a profile
// says how to build the address with a template such as https://files.example.org/images/{file}.
// {file} keeps the slashes of an opaque stored name (000037/2026/09/23/<hash>.jpg) and encodes
// everything else; {id} is the media id.
import { ServiceError } from '../api/errors';
import { requireSecureUrl } from '../api/secureUrl';
import { extensionOf } from '../files/mimeType';
import { l10n } from '../text/l10n';

export const MEDIA_TEMPLATE_FILE = '{file}';
export const MEDIA_TEMPLATE_ID = '{id}';

/** What a template needs of a media item. */
export interface MediaRef {
  id: number;
  file: string;
}

/**
 * Why a template cannot work, in words for the person who typed it; undefined when it can. An
 * empty template is fine: it means "no previews".
 */
export function checkMediaUrlTemplate(template: string): string | undefined {
  const text = template.trim();
  if (!text) return undefined;
  if (!text.includes(MEDIA_TEMPLATE_FILE) && !text.includes(MEDIA_TEMPLATE_ID)) {
    return l10n.t('Put {0} (the file name the gallery lists) or {1} (the media id) where the address names the file.', MEDIA_TEMPLATE_FILE, MEDIA_TEMPLATE_ID);
  }
  try {
    mediaFileUrl(text, { id: 1, file: 'sample/name.jpg' });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The file's address. Throws a 'configuration' ServiceError when the template does not make an
 * https address (http only for this machine), or when the stored name would climb out of the
 * template's path ("..", "." or empty segments), which no files host hands out.
 */
export function mediaFileUrl(template: string, media: MediaRef): URL {
  const address = template.trim().replaceAll(MEDIA_TEMPLATE_FILE, encodeStoredName(media.file)).replaceAll(MEDIA_TEMPLATE_ID, String(media.id));
  return requireSecureUrl(address, 'media URL template address');
}

/** Each path segment encoded on its own, so "a b/c#d.jpg" becomes "a%20b/c%23d.jpg". */
function encodeStoredName(file: string): string {
  const segments = file.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new ServiceError('configuration', l10n.t('The media file name "{0}" cannot be placed in an address (it has an empty, "." or ".." part).', file));
  }
  return segments.map((segment) => encodeURIComponent(segment)).join('/');
}

/**
 * A name to show the file under (a tab title, a download): the last part of the stored name, with
 * an extension from the MIME type when it has none, so editors that choose by extension (image
 * preview, video player) recognise it.
 */
export function mediaDisplayName(media: MediaRef & { mimeType: string }): string {
  const last = media.file.split(/[\\/]/).filter(Boolean).at(-1) ?? '';
  // Characters no file system accepts in a name are replaced; the name is only for showing.
  const base = last.replace(/[\u0000-\u001f<>:"|?*]/g, '_').trim() || `media-${media.id}`;
  if (/\.[A-Za-z0-9]{1,8}$/.test(base)) return base;
  const known = extensionOf(media.mimeType);
  return known ? `${base}.${known}` : base;
}
