// What a fetched file is, by its first bytes: a server's Content-Type may be generic
// (application/octet-stream) or wrong (an HTML login page answered with 200), and a file's name in
// an address often has no extension. The signatures of the types a gallery accepts
// (acceptedTypes.ts), as their formats define them; anything else is unknown.

/** The MIME type the bytes begin as, or undefined. At least 16 bytes are needed to tell them all apart. */
export function sniffMediaType(head: Uint8Array): string | undefined {
  const at = (offset: number, ...bytes: number[]) => bytes.every((byte, index) => head[offset + index] === byte);
  const ascii = (offset: number, text: string) => at(offset, ...Array.from(text, (char) => char.charCodeAt(0)));
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(0, 'RIFF') && ascii(8, 'AVI ')) return 'video/x-msvideo';
  if (ascii(0, 'BM')) return 'image/bmp';
  if (at(0, 0x49, 0x49, 0x2a, 0x00) || at(0, 0x4d, 0x4d, 0x00, 0x2a)) return 'image/tiff';
  if (at(0, 0x1a, 0x45, 0xdf, 0xa3)) return 'video/webm';
  if (at(0, 0x00, 0x00, 0x01, 0xba) || at(0, 0x00, 0x00, 0x01, 0xb3)) return 'video/mpeg';
  // ISO base media files (HEIC, AVIF, MP4, QuickTime): a box "ftyp" at 4, its brand at 8.
  if (ascii(4, 'ftyp')) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    if (/^(heic|heix|heim|heis)$/.test(brand)) return 'image/heic';
    if (/^(mif1|msf1|hevc)$/.test(brand)) return 'image/heif';
    if (/^(avif|avis)$/.test(brand)) return 'image/avif';
    if (brand === 'qt  ') return 'video/quicktime';
    return 'video/mp4';
  }
  return undefined;
}
