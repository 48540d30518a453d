// The spot import document: the one zod source for runtime validation, the TypeScript types
// and the JSON Schema that editors use (generated into schemas/ at build time).
import { z } from 'zod';

/** Topic-specific fields are named fld_<topic>_<number>; galleries share that naming. */
export const TOPIC_FIELD_NAME = /^fld_\d+_\d+$/;

export const SPOT_STATE = { active: 1, inProgress: 2 } as const;

/** Messages that read well in an editor: "is required" for a missing member, the rule otherwise. */
const says = (name: string, rule: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? `${name} is required.` : `${name} must be ${rule}.`),
});

const coreAttributes = {
  topic_id: z.number(says('topic_id', 'a whole number')).int(says('topic_id', 'a whole number')).meta({
    description: 'Id of the topic (project collection) the spot belongs to.',
  }),
  // Not trimmed: the service matches source_id exactly, so what is validated must be what is sent.
  source_id: z.string(says('source_id', 'a text')).regex(/\S/, says('source_id', 'a non-empty text')).meta({
    description: 'External unique identifier. Importing the same source_id again updates that spot instead of creating a new one.',
  }),
  root_id: z.number(says('root_id', 'a whole number (the parent spot id)')).int(says('root_id', 'a whole number (the parent spot id)')).optional().meta({
    description: 'Id of the parent spot. Required when the record is a spot update (a child record of a spot).',
  }),
  latitude: z.number(says('latitude', 'a number')).min(-90, says('latitude', 'between -90 and 90')).max(90, says('latitude', 'between -90 and 90')).meta({
    description: 'Latitude of the spot location in decimal degrees (-90 to 90).',
  }),
  longitude: z.number(says('longitude', 'a number')).min(-180, says('longitude', 'between -180 and 180')).max(180, says('longitude', 'between -180 and 180')).meta({
    description: 'Longitude of the spot location in decimal degrees (-180 to 180).',
  }),
  state: z.literal([1, 2], says('state', '1 (active) or 2 (in progress)')).default(1).meta({
    description: 'Spot state. Must be 2 (in progress) while gallery fields still wait for their media.',
    enumDescriptions: ['1 = active (default)', '2 = in progress: gallery media are still to be uploaded'],
    markdownEnumDescriptions: ['`1` active (default)', '`2` in progress: gallery media are still to be uploaded'],
  }),
  privacy_type: z.literal([0, 1], says('privacy_type', '0 (public) or 1 (private)')).default(0).meta({
    description: 'Who can see the spot.',
    enumDescriptions: ['0 = public (default)', '1 = private'],
    markdownEnumDescriptions: ['`0` public (default)', '`1` private'],
  }),
};

/**
 * Attributes: the known members, and every other member passes through untouched as a topic
 * field. A fld_ member whose value is null is a gallery still waiting for media; any other value
 * of a fld_ member (a gallery id, a text, a number) cannot be judged without the topic's field
 * definitions, so it is not.
 */
export const spotAttributesSchema = z
  .object(coreAttributes)
  .catchall(z.unknown())
  .superRefine((attributes, ctx) => {
    for (const problem of pendingGalleryProblems(attributes)) ctx.addIssue({ code: 'custom', ...problem });
  })
  .meta({
    description: 'Spot fields. Members other than the listed ones are topic fields (fld_<topic>_<number>); a gallery field sent as null is a gallery whose media are still to come.',
  });

export const spotDocumentSchema = z
  .object({
    data: z.object({
      type: z.literal('spots', says('data.type', '"spots"')).meta({ description: 'Always "spots".' }),
      attributes: spotAttributesSchema,
    }),
  })
  .meta({
    title: 'Spot import document',
    description: 'A spot for POST {base_url}/api/{version}/spots/import. Imports upsert by source_id.',
  });

export type SpotDocument = z.output<typeof spotDocumentSchema>;
export type SpotDocumentInput = z.input<typeof spotDocumentSchema>;

/** Names of the fld_ members whose value is null: galleries waiting for media. */
export function pendingGalleryFields(attributes: Record<string, unknown>): string[] {
  return Object.keys(attributes).filter((name) => TOPIC_FIELD_NAME.test(name) && attributes[name] === null);
}

/**
 * The rule JSON Schema cannot express: a gallery field sent as null (media still to come) needs
 * state 2. Paths are relative to data.attributes.
 */
export function pendingGalleryProblems(attributes: Record<string, unknown>): Array<{ path: string[]; message: string }> {
  if (attributes.state === SPOT_STATE.inProgress) return [];
  return pendingGalleryFields(attributes).map((field) => ({
    path: [field],
    message: `Gallery field ${field} is pending (null), so the spot needs "state": 2 until its media are uploaded.`,
  }));
}

/** A minimal valid document, used by "New Spot Document" and the editor's default snippet. */
export function spotTemplate(sourceId: string, topicId = 1): SpotDocumentInput {
  return {
    data: {
      type: 'spots',
      attributes: { topic_id: topicId, source_id: sourceId, latitude: 48.2082, longitude: 16.3738, state: 1, privacy_type: 0 },
    },
  };
}
