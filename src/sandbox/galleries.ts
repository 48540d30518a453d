// GET /api/{version}/galleries/{id} in exactly the interface's shape (included inside data), and
// POST .../galleries/{id}/media/order, the platform's documented media ordering call.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context';
import { apiError, decodeUtf8, HttpError, mediaTypeOf, readBody, sendEmpty, sendJson } from './http';
import { parseJsonBody } from './json';
import type { GalleryRecord } from './store';

const MAX_ORDER_BODY = 256 * 1024;

/**
 * The user's gallery named by a path segment: 400 when it is not an integer id, 404 when unknown
 * or another user's (in the same words, so a client cannot probe which ids exist).
 */
export function galleryFromPath(ctx: SandboxContext, user: string, raw: string): GalleryRecord {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw HttpError.of(400, 'invalid_id', `Gallery id "${raw}" is not a positive integer.`, { parameter: 'id' });
  }
  const gallery = ctx.store.galleryOf(user, id);
  if (!gallery) throw HttpError.of(404, 'not_found', `Gallery ${id} does not exist.`, { parameter: 'id' });
  return gallery;
}

export async function handleGetGallery(ctx: SandboxContext, user: string, req: IncomingMessage, res: ServerResponse, rawId: string): Promise<void> {
  ctx.counters.galleryReads++;
  // Never show what is not saved yet: an id seen here must not be handed out again after a crash.
  await ctx.settled();
  const gallery = galleryFromPath(ctx, user, rawId);
  const media = ctx.store.mediaOf(gallery.id);
  sendJson(req, res, 200, {
    data: {
      id: gallery.id,
      type: 'galleries',
      attributes: { type: gallery.type, state: gallery.state },
      relationships: { media: { data: media.map((item) => ({ id: item.id, type: 'media' })) } },
      included: media.map((item) => ({ id: item.id, type: 'media', attributes: { file: item.file, mimeType: item.mimeType } })),
    },
  });
}

interface OrderEntry {
  id: unknown;
  orderWeight: unknown;
}

export async function handleMediaOrder(ctx: SandboxContext, user: string, req: IncomingMessage, res: ServerResponse, rawId: string): Promise<void> {
  ctx.counters.mediaOrders++;
  const gallery = galleryFromPath(ctx, user, rawId);
  const entries = await readOrderEntries(req);
  if (entries.length === 0) throw HttpError.of(422, 'invalid_attribute', 'data must list at least one media item.', { pointer: '/data' });
  const weights = new Map<number, number>();
  const problems = entries.flatMap((entry, index) => {
    const id = toNumber(entry.id);
    const weight = toNumber(entry.orderWeight);
    const found = [];
    if (!Number.isInteger(id) || ctx.store.mediaById(id)?.galleryId !== gallery.id) {
      found.push(apiError(422, 'invalid_attribute', `${String(entry.id)} is not a media id of gallery ${gallery.id}.`, { pointer: `/data/${index}/id` }));
    }
    if (!Number.isFinite(weight)) {
      found.push(apiError(422, 'invalid_attribute', 'orderWeight must be a number.', { pointer: `/data/${index}/attributes/orderWeight` }));
    }
    if (found.length === 0) weights.set(id, weight);
    return found;
  });
  if (problems.length > 0) throw new HttpError(422, problems);
  await ctx.commit(ctx.store.setOrderWeights(weights));
  sendEmpty(req, res, 204);
}

/**
 * The platform documents form fields data[][id] and data[][attributes][orderWeight]; JSON
 * ({data:[{id, attributes:{orderWeight}}]}) is accepted too.
 */
async function readOrderEntries(req: IncomingMessage): Promise<OrderEntry[]> {
  const type = mediaTypeOf(req);
  const isJson = type === 'application/json' || type === 'application/vnd.api+json';
  if (!isJson && type !== 'application/x-www-form-urlencoded') {
    throw HttpError.of(415, 'unsupported_media_type', 'Send the media order as JSON or form-encoded fields.');
  }
  const text = decodeUtf8(await readBody(req, MAX_ORDER_BODY));
  if (text === undefined) throw HttpError.of(400, 'invalid_body', 'The body is not valid UTF-8.', { pointer: '' });
  if (!isJson) return formEntries(new URLSearchParams(text));
  const value = parseJsonBody(text);
  const data = (value as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw HttpError.of(422, 'invalid_attribute', 'data must be an array.', { pointer: '/data' });
  return data.map((item) => ({ id: item?.id, orderWeight: item?.attributes?.orderWeight }));
}

/** Each data[][id] starts a new entry; the orderWeight that follows belongs to it. */
function formEntries(params: URLSearchParams): OrderEntry[] {
  const entries: OrderEntry[] = [];
  for (const [name, value] of params) {
    if (name === 'data[][id]') entries.push({ id: value, orderWeight: undefined });
    else if (name === 'data[][attributes][orderWeight]' && entries.length > 0) entries[entries.length - 1].orderWeight = value;
  }
  return entries;
}

/** Numbers, or numeric text as form fields carry them; anything else is NaN. */
function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return NaN;
}
