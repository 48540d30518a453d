// MIME types from file names, and file extensions from MIME types: one database (mime-types over
// mime-db) for every part that names a type, so they all agree: the media check's accepted
// types, an upload's Content-Type, the command line's upload records, the type the sandbox stores
// and the name a media file is shown under. The bundles load mime-types on its first use and carry
// a trimmed mime-db (scripts/bundle/mimeTypes.js and esbuild.js), so importing this costs nothing.
import { extension, lookup } from 'mime-types';

/** The type of bytes nothing more is known about: a file whose name says nothing is sent and stored as this. */
export const GENERIC_MIME_TYPE = 'application/octet-stream';

/** The file's MIME type by its name (its extension); for an unknown one, `fallback` (default undefined). */
export function mimeTypeOf(fileName: string): string | undefined;
export function mimeTypeOf(fileName: string, fallback: string): string;
export function mimeTypeOf(fileName: string, fallback?: string): string | undefined {
  return lookup(fileName) || fallback;
}

/** The usual file extension (without the dot) of a MIME type, or undefined when there is none. */
export function extensionOf(mimeType: string): string | undefined {
  return extension(mimeType) || undefined;
}
