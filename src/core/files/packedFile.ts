// A file kept inside another one (a photo in a ZIP archive): it has no path of its own, so it is
// checked from what the archive says of it and read through a stream, never unpacked to disk.
import type { Readable } from 'node:stream';

export interface PackedFile {
  /** How messages name it: the archive's name and the entry's ("export.zip/media/1.jpg"). */
  readonly label: string;
  /** Its size unpacked, as the archive declares it (a stream that inflates to more or less fails). */
  readonly size: number;
  /** Its modification time as the archive records it. */
  readonly mtimeMs: number;
  /** Its bytes, unpacked as they are read; each call reads it anew. */
  open(): Promise<Readable>;
}
