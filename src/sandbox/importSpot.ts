// POST /api/{version}/spots/import: validates the document with the same rules the editor uses,
// then upserts by source_id. Pending (null) gallery fields get a gallery, reused on re-import.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateSpotDocument } from '../core/documents/validateSpot';
import type { SandboxContext } from './context';
import { apiError, decodeUtf8, HttpError, mediaTypeOf, readBody, sendJson } from './http';

export async function handleImport(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, version: string): Promise<void> {
  ctx.counters.imports++;
  const value = await readJsonBody(req, ctx.maxImportBytes);

  const validation = validateSpotDocument(value);
  if (!validation.ok) {
    throw new HttpError(
      422,
      validation.problems.map((problem) => apiError(422, 'invalid_attribute', problem.message, { pointer: problem.pointer })),
    );
  }
  const attributes = validation.document.data.attributes;
  checkRootId(ctx, attributes.root_id, attributes.source_id);

  const { spot, pending } = ctx.store.upsertSpot(attributes, version);
  ctx.persist();
  // The interface's two reply forms: the plain id, or the id with every pending gallery and state 2.
  if (pending.length === 0) {
    sendJson(req, res, 200, { data: { id: spot.id } });
    return;
  }
  const replyAttributes: Record<string, number> = {};
  for (const { field, galleryId } of pending) replyAttributes[field] = galleryId;
  replyAttributes.state = 2;
  sendJson(req, res, 200, { data: { id: spot.id, attributes: replyAttributes } });
}

/** Accepts application/json and JSON:API's application/vnd.api+json (any +json type, in fact). */
async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = mediaTypeOf(req);
  if (type !== 'application/json' && !/^application\/[a-z0-9.\-]+\+json$/.test(type)) {
    throw HttpError.of(415, 'unsupported_media_type', `The body must be JSON (Content-Type: application/json), not "${type || 'none'}".`);
  }
  const text = decodeUtf8(await readBody(req, limit));
  if (text === undefined) throw HttpError.of(400, 'invalid_json', 'The body is not valid UTF-8.', { pointer: '' });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw HttpError.of(400, 'invalid_json', `The body is not valid JSON: ${(error as Error).message}`, { pointer: '' });
  }
}

function checkRootId(ctx: SandboxContext, rootId: number | undefined, sourceId: string): void {
  if (rootId === undefined) return;
  const pointer = '/data/attributes/root_id';
  const parent = ctx.store.spotById(rootId);
  if (!parent) throw HttpError.of(422, 'unknown_root', `root_id ${rootId} does not name an existing spot.`, { pointer });
  if (parent.sourceId === sourceId) throw HttpError.of(422, 'invalid_root', 'A spot cannot be its own parent (root_id).', { pointer });
}
