// GET/HEAD /files/{media id}/{file}: the stored bytes of a media item, as the platform's separate
// files host serves them (publicly, by address: no bearer token, so a client never sends its API
// token to a files host). The file part must be the name the gallery reply lists, segment by
// segment, so a client that builds the address from the reply is tested for doing it right; the
// media id in front keeps two galleries' "photo.jpg" apart when uploads keep the names sent.
import { createReadStream, promises as fs } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { SandboxContext } from './context';
import { HttpError } from './http';

export async function handleFileRead(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, rawMediaId: string, rawFile: string): Promise<void> {
  ctx.counters.fileReads++;
  // Only what is saved is served: an id seen here must be one that survives a crash.
  await ctx.settled();
  const notFound = () => HttpError.of(404, 'not_found', `There is no media file at /files/${rawMediaId}/${rawFile}.`);
  const id = /^\d{1,15}$/.test(rawMediaId) ? Number(rawMediaId) : NaN;
  const item = Number.isSafeInteger(id) ? ctx.store.mediaById(id) : undefined;
  const file = decodePath(rawFile);
  if (!item || file === undefined || file !== item.file) throw notFound();
  const path = join(ctx.mediaDir, item.storedName);
  let size: number;
  try {
    size = (await fs.stat(path)).size;
  } catch {
    throw notFound();
  }
  res.writeHead(200, {
    'Content-Type': item.mimeType,
    'Content-Length': String(size),
    // Uploaded bytes are the uploader's: never sniffed into something else, never run as a page.
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': 'sandbox',
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Cache-Control': 'private, max-age=60',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  try {
    await pipeline(createReadStream(path), res);
  } catch {
    // The client went away, or the file vanished mid-read: the reply is already under way.
    res.destroy();
  }
}

/** Each segment percent-decoded on its own ("a%2Fb" stays one segment and cannot match). */
function decodePath(raw: string): string | undefined {
  try {
    const segments = raw.split('/').map((segment) => decodeURIComponent(segment));
    return segments.some((segment) => segment.includes('/')) ? undefined : segments.join('/');
  } catch {
    return undefined;
  }
}
