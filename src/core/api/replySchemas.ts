// Schemas of everything the service answers. Replies are checked, never trusted: a reply that
// does not match becomes a MalformedReplyError, not a crash further on.
import * as z from './zod';
import { TOPIC_FIELD_NAME } from './spotSchema';
import { GENERIC_MIME_TYPE } from '../files/mimeType';
import { l10n } from '../text/l10n';

const id = z.number().check(z.int(), z.gte(0));

/** Import reply: `{data:{id}}`, or with pending galleries `{data:{id, attributes:{fld_..: id, state: 2}}}`. */
export const importReplySchema = z.object({
  data: z.object({
    id,
    attributes: z.optional(z.record(z.string(), z.unknown())),
  }),
});

export interface PendingGallery {
  field: string;
  galleryId: number;
}

export interface ImportResult {
  spotId: number;
  /** Gallery fields the service created galleries for; upload their media next. */
  pendingGalleries: PendingGallery[];
  state?: number;
}

/**
 * Reads the pending galleries out of a checked import reply. Topic fields of every kind share the
 * fld_ naming, so only fields the request sent as pending (null) count, when that list is known;
 * a server that echoes a numeric topic field must not conjure a gallery.
 */
export function toImportResult(reply: z.output<typeof importReplySchema>, requestedPending?: readonly string[]): ImportResult {
  const attributes = reply.data.attributes ?? {};
  const pendingGalleries: PendingGallery[] = [];
  for (const [field, value] of Object.entries(attributes)) {
    if (requestedPending && !requestedPending.includes(field)) continue;
    if (TOPIC_FIELD_NAME.test(field) && typeof value === 'number' && Number.isInteger(value)) {
      pendingGalleries.push({ field, galleryId: value });
    }
  }
  const state = typeof attributes.state === 'number' ? attributes.state : undefined;
  return { spotId: reply.data.id, pendingGalleries, state };
}

export const mediaRecordSchema = z.object({
  id,
  type: z.literal('media'),
  attributes: z.catchall(z.object({ file: z.string(), mimeType: z.string() }), z.unknown()),
});

export const galleryReplySchema = z.object({
  data: z.object({
    id,
    type: z.literal('galleries'),
    attributes: z.catchall(z.object({ type: z.number().check(z.int()), state: z.number().check(z.int()) }), z.unknown()),
    relationships: z.object({
      media: z.object({ data: z.array(z.object({ id, type: z.literal('media') })) }),
    }),
    // The interface puts `included` inside `data`; JSON:API puts it beside. Both are read.
    included: z.optional(z.array(mediaRecordSchema)),
  }),
  included: z.optional(z.array(mediaRecordSchema)),
});

export interface Media {
  id: number;
  file: string;
  mimeType: string;
  /** Every attribute the service sent, known or not. */
  attributes: Record<string, unknown>;
}

export interface Gallery {
  id: number;
  /** data.attributes.type: the kind of gallery. */
  kind: number;
  state: number;
  media: Media[];
}

/** Media in relationship order; an entry without its included record keeps a placeholder name. */
export function toGallery(reply: z.output<typeof galleryReplySchema>): Gallery {
  const records = new Map<number, z.output<typeof mediaRecordSchema>>();
  for (const record of [...(reply.data.included ?? []), ...(reply.included ?? [])]) records.set(record.id, record);
  const media = reply.data.relationships.media.data.map((ref): Media => {
    const record = records.get(ref.id);
    return record
      ? { id: ref.id, file: record.attributes.file, mimeType: record.attributes.mimeType, attributes: { ...record.attributes } }
      : { id: ref.id, file: `media ${ref.id}`, mimeType: GENERIC_MIME_TYPE, attributes: {} };
  });
  return { id: reply.data.id, kind: reply.data.attributes.type, state: reply.data.attributes.state, media };
}

/** Worded when a reply has the problem (the bundle of the user's language is set after this module loads). */
const lifetimeProblem = { error: () => l10n.t('must be a number of seconds, such as 3600') };

/**
 * Seconds until the token expires. RFC 6749 says a number; some endpoints send it as a numeric
 * string ("3600"), which is read the same. Anything else is refused with words that say so.
 */
const expiresInSchema = z.pipe(
  z.union([z.number(), z.pipe(z.string().check(z.regex(/^\s*\d+(?:\.\d+)?\s*$/)), z.transform(Number))], lifetimeProblem),
  z.number(lifetimeProblem).check(z.gt(0, lifetimeProblem)),
);

export const tokenReplySchema = z.object({
  access_token: z.string().check(z.minLength(1)),
  token_type: z.string().check(z.regex(/^bearer$/i, { error: () => l10n.t('token_type must be Bearer') })),
  expires_in: z.optional(expiresInSchema),
});

export const tokenErrorSchema = z.object({
  error: z.string(),
  error_description: z.optional(z.string()),
  message: z.optional(z.string()),
});

/** JSON:API error objects, as the sandbox (and most JSON:API servers) send them. */
export const jsonApiErrorsSchema = z.object({
  errors: z.array(
    z.object({
      status: z.optional(z.string()),
      code: z.optional(z.string()),
      title: z.optional(z.string()),
      detail: z.optional(z.string()),
      source: z.optional(z.object({ pointer: z.optional(z.string()) })),
    }),
  ),
});
