// Whether a JPEG ends inside its header segments (the EXIF, XMP, ICC, tables before the picture):
// each segment declares its length, so a file shorter than where one ends was cut short there. A
// copy cut inside the EXIF segment otherwise reads as a photo whose camera wrote no position
// (the EXIF reader parses what is there and stops), sending the user to the camera's settings.
import { open } from 'node:fs/promises';

// Header segments of phones and cameras (EXIF, XMP, an ICC profile, a maker's preview) fit in this.
const HEADER_BYTES = 256 * 1024;
const START_OF_SCAN = 0xda;

/** True when the file is a JPEG whose header segments run past its `size` bytes. */
export async function jpegCutInHeader(path: string, size: number): Promise<boolean> {
  const handle = await open(path, 'r');
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(Math.min(size, HEADER_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    bytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return false;
  for (let at = 2; ;) {
    // The file ends within a segment's marker and length, or right after a segment (no picture
    // follows): cut; the window ends there: unknown.
    if (at + 4 > bytes.length) return at + 4 > size;
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1];
    if (marker === START_OF_SCAN) return false;
    // Markers without a length: fill bytes (0xFF), TEM and the restarts.
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    const end = at + 2 + bytes.readUInt16BE(at + 2);
    if (end > size) return true;
    at = end;
  }
}
