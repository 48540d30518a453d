// POST /api/{version}/spots/import: validates the document with the same rules the editor uses,
// then upserts by the caller's user and source_id. Pending (null) gallery fields get a gallery,
// reused on re-import. The reply goes out once the change is saved.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { definitionFor, pendingGalleryFields, type GalleryFieldCatalog } from '../core/api/spotSchema';
import { toPointer } from '../core/documents/problems';
import { validateSpotDocument } from '../core/documents/validateSpot';
import type { SandboxContext } from './context';
import { apiError, decodeUtf8, HttpError, mediaTypeOf, readBody, sendJson } from './http';
import { parseJsonBody } from './json';

/**
 * Most pending (null) gallery fields one import may carry: each one creates a gallery, and a
 * single 1 MB document could otherwise create tens of thousands of them. More is a 422 pointing
 * at the first field past the cap.
 */
export const MAX_PENDING_GALLERIES = 100;

export async function handleImport(ctx: SandboxContext, user: string, req: IncomingMessage, res: ServerResponse, version: string): Promise<void> {
  ctx.counters.imports++;
  const value = await readJsonBody(req, ctx.maxImportBytes);
  checkPendingCount(value, ctx.topics);

  const validation = validateSpotDocument(value, { topics: ctx.topics });
  if (!validation.ok) {
    throw new HttpError(
      422,
      validation.problems.map((problem) => apiError(422, 'invalid_attribute', problem.message, { pointer: problem.pointer })),
    );
  }
  const attributes = validation.document.data.attributes;
  checkRootId(ctx, user, attributes.root_id, attributes.source_id);

  const { spot, pending, change } = ctx.store.upsertSpot(user, attributes, version, definitionFor(attributes, ctx.topics));
  await ctx.commit(change);
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
  return parseJsonBody(text);
}

/** Checked before validation, so thousands of null fields get one error, not one per field. */
function checkPendingCount(value: unknown, topics: GalleryFieldCatalog | undefined): void {
  const attributes = (value as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) return;
  const record = attributes as Record<string, unknown>;
  const pending = pendingGalleryFields(record, definitionFor(record, topics));
  if (pending.length <= MAX_PENDING_GALLERIES) return;
  throw HttpError.of(
    422,
    'too_many_galleries',
    `One import may create at most ${MAX_PENDING_GALLERIES} pending galleries (null gallery fields); this one has ${pending.length}.`,
    { pointer: toPointer(['data', 'attributes', pending[MAX_PENDING_GALLERIES]]) },
  );
}

function checkRootId(ctx: SandboxContext, user: string, rootId: number | undefined, sourceId: string): void {
  if (rootId === undefined) return;
  const pointer = '/data/attributes/root_id';
  // Another user's spot is answered like one that does not exist: ids of others are not revealed.
  const parent = ctx.store.spotOf(user, rootId);
  if (!parent) throw HttpError.of(422, 'unknown_root', `root_id ${rootId} does not name an existing spot.`, { pointer });
  if (parent.sourceId === sourceId) throw HttpError.of(422, 'invalid_root', 'A spot cannot be its own parent (root_id).', { pointer });
}
