// POST /api/{version}/galleries/{id}/media: stores one uploaded file in the gallery and records
// its name and MIME type. The gallery is checked before a byte of the body is read. With --data
// the 201 goes out only once the bytes, their name in the media directory and the record are
// all on disk.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { extname, join } from 'node:path';
import { GENERIC_MIME_TYPE, mimeTypeOf } from '../core/files/mimeType';
import type { SandboxContext } from './context';
import { galleryFromPath } from './galleries';
import { HttpError, mediaTypeOf, sendJson } from './http';
import { receiveFile, TEMP_PREFIX } from './multipart';

export async function handleUpload(ctx: SandboxContext, user: string, req: IncomingMessage, res: ServerResponse, rawId: string): Promise<void> {
  ctx.counters.uploads++;
  const gallery = galleryFromPath(ctx, user, rawId);
  if (mediaTypeOf(req) !== 'multipart/form-data') {
    throw HttpError.of(415, 'unsupported_media_type', 'Upload media as multipart/form-data.');
  }
  const received = await receiveFile(req, ctx.mediaDir, ctx.fileFieldName, ctx.durable);
  if (received.size === 0) {
    await fs.rm(received.tempPath, { force: true });
    throw HttpError.of(422, 'empty_file', 'The uploaded file is empty.', { pointer: '/data/attributes/file' });
  }

  const sentName = received.fileName || 'upload';
  const fileName = ctx.renameMedia ? generatedName(sentName) : sentName;
  // A generic part type says nothing: the file name's extension is the better witness then.
  const mimeType = received.partType === GENERIC_MIME_TYPE ? mimeTypeOf(sentName, GENERIC_MIME_TYPE) : received.partType;
  const id = ctx.store.reserveMediaId();
  const storedName = storedMediaName(id, fileName);
  try {
    await fs.rename(received.tempPath, join(ctx.mediaDir, storedName));
  } catch (error) {
    await fs.rm(received.tempPath, { force: true });
    throw error;
  }
  const { change } = ctx.store.addMedia({ id, galleryId: gallery.id, file: fileName, mimeType, size: received.size, storedName });
  await ctx.commit(change, { syncMedia: true });
  sendJson(req, res, 201, { data: { id, type: 'media', attributes: { file: fileName, mimeType, size: received.size } } });
}

/** Media on disk: `<media id>-<tame name>`; isStoredMediaName recognises them (and temporaries). */
function storedMediaName(id: number, fileName: string): string {
  return `${id}-${diskSafe(fileName)}`;
}

/** A name the sandbox gave something in its media folder: stored media, or an upload in progress. */
export function isStoredMediaName(name: string): boolean {
  return /^\d+-/.test(name) || name.startsWith(TEMP_PREFIX);
}

/** The client's name is metadata; on disk only a tame version of it follows the media id. */
function diskSafe(name: string): string {
  const tame = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return tame.slice(-80) || 'file';
}

/** An opaque stored name in the platform's shape (topic/yyyy/mm/dd/hash), keeping the extension. */
function generatedName(sentName: string): string {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
  return `000001/${day}/${randomBytes(12).toString('hex')}${extname(sentName).toLowerCase()}`;
}
