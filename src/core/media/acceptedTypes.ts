// Which files may go into a gallery, by MIME type looked up from the file name (mimeTypeOf, the
// same lookup the upload uses for its Content-Type). SVG is left out on purpose: it can carry
// scripts, and photo galleries do not need it.

export const DEFAULT_ACCEPTED_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/avif',
  'image/tiff',
  'image/bmp',
  'video/mp4',
  'video/quicktime',
  'video/webm',
  'video/mpeg',
  'video/x-msvideo',
];

/** Entries are exact types or whole families written as `image/*`. */
export function isAcceptedType(mimeType: string | undefined, accepted: readonly string[]): boolean {
  if (!mimeType) return false;
  const type = mimeType.toLowerCase();
  return accepted.some((entry) => {
    const wanted = entry.trim().toLowerCase();
    return wanted === type || (wanted.endsWith('/*') && type.startsWith(wanted.slice(0, -1)));
  });
}
