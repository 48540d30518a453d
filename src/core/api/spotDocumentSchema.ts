// The spot import document's zod schema: the one source for runtime validation, the TypeScript
// types and the JSON Schema that editors use (generated into schemas/ at build time). Apart from
// spotSchema.ts so that loading the service client (dist/core.js) does not build it.
import * as z from './zod';
import { SPOT_STATE, TOPIC_FIELD_NAME } from './spotSchema';
import { l10n } from '../text/l10n';

/**
 * A member's rule in words. `check` is zod's error option ("is required" for a missing member, the
 * rule otherwise), worded when a document breaks the rule, in the user's language (text/l10n.ts:
 * the bundle is set after this module loads); `meta` gives the same words, in English, to the
 * editor schema as errorMessage (schemas/ is written at build time), which VS Code's JSON language
 * service shows instead of its generic ones for a wrong type or value, so the editor and an import
 * that refuses the document say the same thing.
 */
function member(name: string, english: string, message: () => string) {
  return {
    check: { error: (issue: { input?: unknown }) => (issue.input === undefined ? l10n.t('{0} is required.', name) : message()) },
    meta: { errorMessage: english },
  };
}

const topicIdRule = member('topic_id', 'topic_id must be a whole number.', () => l10n.t('topic_id must be a whole number.'));
const sourceIdRule = member('source_id', 'source_id must be a non-empty text.', () => l10n.t('source_id must be a non-empty text.'));
const rootIdRule = member('root_id', 'root_id must be a whole number (the parent spot id).', () =>
  l10n.t('root_id must be a whole number (the parent spot id).'),
);
const latitudeRule = member('latitude', 'latitude must be a number.', () => l10n.t('latitude must be a number.'));
const latitudeRangeRule = member('latitude', 'latitude must be between -90 and 90.', () => l10n.t('latitude must be between -90 and 90.'));
const longitudeRule = member('longitude', 'longitude must be a number.', () => l10n.t('longitude must be a number.'));
const longitudeRangeRule = member('longitude', 'longitude must be between -180 and 180.', () => l10n.t('longitude must be between -180 and 180.'));
const stateRule = member('state', 'state must be 1 (active) or 2 (in progress).', () => l10n.t('state must be 1 (active) or 2 (in progress).'));
const privacyTypeRule = member('privacy_type', 'privacy_type must be 0 (public) or 1 (private).', () =>
  l10n.t('privacy_type must be 0 (public) or 1 (private).'),
);
const dataTypeRule = member('data.type', 'data.type must be "spots".', () => l10n.t('data.type must be "spots".'));

const coreAttributes = {
  topic_id: z
    .number(topicIdRule.check)
    .check(z.int(topicIdRule.check))
    .register(z.globalRegistry, {
      description: 'Id of the topic (project collection) the spot belongs to.',
      ...topicIdRule.meta,
    }),
  // Not trimmed: the service matches source_id exactly, so what is validated must be what is sent.
  source_id: z
    .string(sourceIdRule.check)
    .check(z.regex(/\S/, sourceIdRule.check))
    .register(z.globalRegistry, {
      description: 'External unique identifier. Importing the same source_id again updates that spot instead of creating a new one.',
      ...sourceIdRule.meta,
    }),
  root_id: z.optional(z.number(rootIdRule.check).check(z.int(rootIdRule.check))).register(z.globalRegistry, {
    description: 'Id of the parent spot. Required when the record is a spot update (a child record of a spot).',
    ...rootIdRule.meta,
  }),
  latitude: z
    .number(latitudeRule.check)
    .check(z.gte(-90, latitudeRangeRule.check), z.lte(90, latitudeRangeRule.check))
    .register(z.globalRegistry, {
      description: 'Latitude of the spot location in decimal degrees (-90 to 90).',
      ...latitudeRule.meta,
    }),
  longitude: z
    .number(longitudeRule.check)
    .check(z.gte(-180, longitudeRangeRule.check), z.lte(180, longitudeRangeRule.check))
    .register(z.globalRegistry, {
      description: 'Longitude of the spot location in decimal degrees (-180 to 180).',
      ...longitudeRule.meta,
    }),
  state: z._default(z.literal([1, 2], stateRule.check), 1).register(z.globalRegistry, {
    description: 'Spot state. Must be 2 (in progress) while gallery fields still wait for their media.',
    enumDescriptions: ['1 = active (default)', '2 = in progress: gallery media are still to be uploaded'],
    markdownEnumDescriptions: ['`1` active (default)', '`2` in progress: gallery media are still to be uploaded'],
    ...stateRule.meta,
  }),
  privacy_type: z._default(z.literal([0, 1], privacyTypeRule.check), 0).register(z.globalRegistry, {
    description: 'Who can see the spot.',
    enumDescriptions: ['0 = public (default)', '1 = private'],
    markdownEnumDescriptions: ['`0` public (default)', '`1` private'],
    ...privacyTypeRule.meta,
  }),
};

/** pendingGalleryMessage() in English, for the editor schema (written at build time; test/unit/spotSchema.test.ts holds the two equal). */
const PENDING_GALLERY_EDITOR_MESSAGE = 'This gallery field is pending (null), so the spot needs "state": 2 until its media are uploaded.';

/**
 * The pending-gallery rule (see pendingGalleryProblems) for the editor schema, in draft-07 terms
 * that VS Code's JSON language service evaluates: unless state is 2, no fld_ member may be null.
 * Built from the same constants and words as the core's check, so the two cannot disagree, and
 * the editor places the message even before the extension runs.
 */
const pendingGalleryJsonSchema = {
  if: { required: ['state'], properties: { state: { const: SPOT_STATE.inProgress } } },
  else: { patternProperties: { [TOPIC_FIELD_NAME.source]: { not: { type: 'null' }, errorMessage: PENDING_GALLERY_EDITOR_MESSAGE } } },
};

/**
 * Attributes: the known members, and every other member passes through untouched as a topic
 * field. The pending-gallery rule is not a refinement here: which members are galleries depends on
 * the topic's definition when there is one, so validateSpotDocument checks it (pendingGalleryProblems).
 */
export const spotAttributesSchema = z.catchall(z.compiledObject(coreAttributes), z.unknown()).register(z.globalRegistry, {
  description:
    'Spot fields. Members other than the listed ones are topic fields (fld_<topic>_<number>); a gallery field sent as null is a gallery whose media are still to come.',
  ...pendingGalleryJsonSchema,
});

export const spotDocumentSchema = z
  .compiledObject({
    data: z.compiledObject({
      type: z.literal('spots', dataTypeRule.check).register(z.globalRegistry, { description: 'Always "spots".', ...dataTypeRule.meta }),
      attributes: spotAttributesSchema,
    }),
  })
  .register(z.globalRegistry, {
    title: 'Spot import document',
    description: 'A spot for POST {base_url}/api/{version}/spots/import. Imports upsert by source_id.',
  });

export type SpotDocument = z.output<typeof spotDocumentSchema>;
export type SpotDocumentInput = z.input<typeof spotDocumentSchema>;

/** A minimal valid document, used by "New Spot Document" and the editor's default snippet. */
export function spotTemplate(sourceId: string, topicId = 1): SpotDocumentInput {
  return {
    data: {
      type: 'spots',
      attributes: { topic_id: topicId, source_id: sourceId, latitude: 48.2082, longitude: 16.3738, state: 1, privacy_type: 0 },
    },
  };
}
