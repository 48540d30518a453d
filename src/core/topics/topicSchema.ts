// A topic definition file (spot-topics/*.topic.json): the fields one topic of the service defines
// (label, type, allowed values), which the interface itself does not publish. The one zod source
// for parsing the files, their TypeScript types and the JSON Schema editors use.
import * as z from '../api/zod';
import { spotAttributesSchema } from '../api/spotDocumentSchema';
import { bboxProblems, LATITUDE_LIMIT, LONGITUDE_LIMIT, type Bbox } from '../geo/position';
import { TOPIC_FIELD_NAME } from '../api/spotSchema';
import { l10n } from '../text/l10n';

/** The members of data.attributes that are not topic fields (topic_id, source_id, state, …). */
export const KNOWN_SPOT_MEMBERS: readonly string[] = Object.keys(spotAttributesSchema.shape);

export const TOPIC_FIELD_TYPES = ['text', 'number', 'integer', 'boolean', 'date', 'datetime', 'category', 'categories', 'gallery'] as const;
export type TopicFieldType = (typeof TOPIC_FIELD_TYPES)[number];

const common = {
  label: z
    .string()
    .register(z.globalRegistry, { description: 'What the field means, as the service shows it (e.g. "Species"). Shown next to the field name while writing.' }),
  description: z.optional(z.string()).register(z.globalRegistry, { description: 'More about the field, shown on hover.' }),
  required: z.optional(z.boolean()).register(z.globalRegistry, { description: 'true: every spot of this topic must carry the field.' }),
};

const bounds = {
  minimum: z.optional(z.number()).register(z.globalRegistry, { description: 'Smallest allowed value.' }),
  maximum: z.optional(z.number()).register(z.globalRegistry, { description: 'Largest allowed value.' }),
};

const categoryValues = z
  .record(z.string().check(z.regex(/\S/, { error: () => l10n.t('A category key must not be empty.') })), z.string())
  .check(z.refine((values) => Object.keys(values).length > 0, { error: () => l10n.t('values must name at least one category.') }))
  .register(z.globalRegistry, { description: 'The allowed keys, each with its label: { "1": "Oak", "2": "Beech" }. Documents send the key.' });

/**
 * One number of a bbox, in the range of its axis; the same words for the editor (errorMessage, in
 * English: schemas/ is written at build time), and in the user's language when a file breaks it.
 */
const bboxEdge = (name: 'west' | 'south' | 'east' | 'north', limit: number) => {
  const outOfRange = { error: () => bboxEdgeMessage(name, limit) };
  return z
    .number()
    .check(z.gte(-limit, outOfRange), z.lte(limit, outOfRange))
    .register(z.globalRegistry, {
      description: `The area's ${name} edge, degrees.`,
      errorMessage: `${name} must be a number between -${limit} and ${limit} (degrees).`,
    });
};

function bboxEdgeMessage(name: 'west' | 'south' | 'east' | 'north', limit: number): string {
  switch (name) {
    case 'west':
      return l10n.t('west must be a number between -{0} and {0} (degrees).', limit);
    case 'south':
      return l10n.t('south must be a number between -{0} and {0} (degrees).', limit);
    case 'east':
      return l10n.t('east must be a number between -{0} and {0} (degrees).', limit);
    case 'north':
      return l10n.t('north must be a number between -{0} and {0} (degrees).', limit);
  }
}

/**
 * Where the topic's spots are. A spot outside it gets a warning (not an error: an area drawn a
 * little small should not block an import). A west larger than east crosses the antimeridian,
 * as in GeoJSON (RFC 7946 §5.2): [170, -50, -170, -30] is the 20 degrees around 180.
 */
const areaSchema = z
  .strictObject({
    bbox: z
      .tuple([bboxEdge('west', LONGITUDE_LIMIT), bboxEdge('south', LATITUDE_LIMIT), bboxEdge('east', LONGITUDE_LIMIT), bboxEdge('north', LATITUDE_LIMIT)], {
        error: () => l10n.t('area.bbox must be four numbers: [west, south, east, north] in degrees (WGS 84).'),
      })
      .register(z.globalRegistry, {
        description:
          '[west, south, east, north] in degrees (WGS 84), as GeoJSON writes a bbox. West larger than east: the area crosses the antimeridian (180°).',
      }),
  })
  .register(z.globalRegistry, {
    description: "Where the topic's spots are: a spot outside gets a warning, and a hint when swapping its latitude and longitude would bring it in.",
  });

const field = <T extends TopicFieldType, S extends z.core.$ZodLooseShape>(type: T, description: string, extra: S) => {
  // globalRegistry.add rather than .register(), whose parameter type TypeScript cannot resolve for a generic T.
  const literal = z.literal(type);
  z.globalRegistry.add(literal, { description });
  return z.strictObject({ type: literal, ...common, ...extra });
};

export const topicFieldSchema = z.discriminatedUnion('type', [
  field('text', 'A text.', {
    maxLength: z.optional(z.number().check(z.int(), z.gte(0))).register(z.globalRegistry, { description: 'Longest allowed text, in characters.' }),
  }),
  field('number', 'A number.', bounds),
  field('integer', 'A whole number.', bounds),
  field('boolean', 'true or false.', {}),
  field('date', 'A date, "YYYY-MM-DD".', {}),
  field('datetime', 'A date and time as the service writes it, "YYYY-MM-DD HH:MM:SS".', {}),
  field('category', 'One key of values.', { values: categoryValues }),
  field('categories', 'An array of keys of values.', { values: categoryValues }),
  field('gallery', 'A gallery: null while its media are still to be uploaded, else the gallery id.', {}),
]);

export const topicDefinitionSchema = z
  .strictObject({
    $schema: z
      .optional(z.string())
      .register(z.globalRegistry, { description: "Address of this file's JSON Schema (optional; VS Code finds it by the file name)." }),
    topic_id: z
      .number()
      .check(z.int())
      .register(z.globalRegistry, { description: 'The topic these fields belong to: spot documents whose topic_id is this number are checked against them.' }),
    name: z.optional(z.string()).register(z.globalRegistry, { description: "The topic's name, used in messages." }),
    description: z.optional(z.string()),
    area: z.optional(areaSchema),
    fields: z.record(z.string().check(z.regex(/\S/, { error: () => l10n.t('A field name must not be empty.') })), topicFieldSchema).register(z.globalRegistry, {
      description: 'The topic\'s fields by the name documents use in data.attributes (e.g. "fld_7_1").',
    }),
  })
  .register(z.globalRegistry, {
    title: 'Spot topic definition',
    description: 'The fields of one topic of the spot service, so that spot documents of that topic can be checked and written with labels.',
  });

export type TopicDefinition = z.output<typeof topicDefinitionSchema>;

/**
 * The rules no JSON Schema carries, checked on the raw value so they are reported together with
 * the schema's problems (zod would run a refinement only once everything else is valid). Paths
 * are from the file's root.
 */
export function definitionRuleProblems(value: unknown): Array<{ path: Array<string | number>; message: string }> {
  const problems: Array<{ path: Array<string | number>; message: string }> = [];
  const bbox = (value as { area?: { bbox?: unknown } } | null)?.area?.bbox;
  if (Array.isArray(bbox) && bbox.length === 4 && bbox.every((edge) => typeof edge === 'number')) {
    for (const { edge, message } of bboxProblems(bbox as unknown as Bbox)) problems.push({ path: ['area', 'bbox', edge], message });
  }
  const fields = (value as { fields?: unknown } | null)?.fields;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return problems;
  for (const [name, spec] of Object.entries(fields as Record<string, unknown>)) {
    if (name === UNUSABLE_NAME) problems.push({ path: ['fields', name], message: unusableNameMessage() });
    // A known member (state, latitude, …) is never a topic field: defining one would hide its own rule.
    if (KNOWN_SPOT_MEMBERS.includes(name))
      problems.push({ path: ['fields', name], message: l10n.t('{0} is a spot member, not a topic field; remove it from fields.', name) });
    const { minimum, maximum, type, values } = (spec ?? {}) as { minimum?: unknown; maximum?: unknown; type?: unknown; values?: unknown };
    // The service names its gallery fields so, and only such a field's null is a gallery waiting for its media.
    if (type === 'gallery' && !TOPIC_FIELD_NAME.test(name))
      problems.push({
        path: ['fields', name],
        message: l10n.t('{0} cannot be a gallery field: the service names its gallery fields fld_<number>_<number>.', name),
      });
    if (typeof minimum === 'number' && typeof maximum === 'number' && minimum > maximum) {
      problems.push({ path: ['fields', name, 'minimum'], message: l10n.t('minimum ({0}) is larger than maximum ({1}).', minimum, maximum) });
    }
    if (typeof values === 'object' && values !== null && Object.hasOwn(values, UNUSABLE_NAME))
      problems.push({ path: ['fields', name, 'values', UNUSABLE_NAME], message: unusableNameMessage() });
  }
  return problems;
}

/** zod's records leave this name out of what they read, so a field or category so named would vanish without a word. */
const UNUSABLE_NAME = '__proto__';

function unusableNameMessage(): string {
  return l10n.t('{0} cannot be used as a name in a topic definition: it would be dropped when the file is read.', UNUSABLE_NAME);
}
export type TopicField = z.output<typeof topicFieldSchema>;

/** The definitions in effect, by topic_id. A Map satisfies it. */
export type TopicCatalog = ReadonlyMap<number, TopicDefinition>;

/** "Species (fld_7_1)", or just the name while the label is empty. */
export function fieldTitle(name: string, spec: Pick<TopicField, 'label'> | undefined): string {
  return spec?.label ? `${spec.label} (${name})` : name;
}

/** "topic 7 (Trail observations)", for messages. */
export function topicTitle(definition: Pick<TopicDefinition, 'topic_id' | 'name'>): string {
  return definition.name
    ? l10n.t({
        message: 'topic {0} ({1})',
        args: [definition.topic_id, definition.name],
        comment: ['A topic in a message: its id and its name, e.g. "Species is required by topic 7 (Trail observations)."'],
      })
    : l10n.t({ message: 'topic {0}', args: [definition.topic_id], comment: ['A topic in a message, by its id, e.g. "Species is required by topic 7."'] });
}
