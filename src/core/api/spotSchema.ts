// The spot import document's constants and its gallery rules: what the service client and every
// check share. The zod schema of the whole document (validation, the TypeScript types, the
// editor's JSON Schema) and its template are spotDocumentSchema.ts: the first request does not
// build it.
import { SPOT_RULES } from './spotRules';
import { l10n } from '../text/l10n';

/** Topic-specific fields are named fld_<topic>_<number>; galleries share that naming. */
export const TOPIC_FIELD_NAME = /^fld_\d+_\d+$/;

export const SPOT_STATE = { active: 1, inProgress: 2 } as const;

/**
 * What a topic definition says of its fields' types, structurally (the full TopicDefinition of
 * core/topics satisfies it), so the base rules need no import of the topics module.
 */
export interface GalleryFieldTypes {
  fields: Readonly<Record<string, { type: string }>>;
}

/** The definitions in effect by topic_id (a TopicCatalog, any Map, or a live lookup satisfies it). */
export interface GalleryFieldCatalog {
  get(topicId: number): GalleryFieldTypes | undefined;
}

/**
 * Whether a member holds a gallery. The interface names gallery fields fld_<topic>_<number> (and
 * the import reply carries their ids under those names); among those, a field the topic's
 * definition defines is a gallery by its type, whatever its value.
 */
export function isGalleryField(name: string, definition?: GalleryFieldTypes): boolean {
  if (!TOPIC_FIELD_NAME.test(name)) return false;
  const spec = definition && Object.hasOwn(definition.fields, name) ? definition.fields[name] : undefined;
  return spec ? spec.type === 'gallery' : true;
}

/** The definition for a document's attributes: the catalog's entry for its topic_id. */
export function definitionFor(attributes: Record<string, unknown>, catalog: GalleryFieldCatalog | undefined): GalleryFieldTypes | undefined {
  return catalog && typeof attributes.topic_id === 'number' ? catalog.get(attributes.topic_id) : undefined;
}

/** The gallery fields whose value is null: galleries waiting for media (see isGalleryField). */
export function pendingGalleryFields(attributes: Record<string, unknown>, definition?: GalleryFieldTypes): string[] {
  return Object.keys(attributes).filter((name) => attributes[name] === null && isGalleryField(name, definition));
}

/**
 * The cross-field rule: a gallery field sent as null (media still to come) needs state 2. Paths
 * are relative to data.attributes. The editor schema says the same for fld_ members
 * (pendingGalleryJsonSchema); it cannot know a topic's definition.
 */
export function pendingGalleryProblems(
  attributes: Record<string, unknown>,
  definition?: GalleryFieldTypes,
): Array<{ path: string[]; message: string; rule: string }> {
  if (attributes.state === SPOT_STATE.inProgress) return [];
  return pendingGalleryFields(attributes, definition).map((field) => ({
    path: [field],
    message: pendingGalleryMessage(field),
    rule: SPOT_RULES.pendingNeedsState2,
  }));
}

/** The rule's words; without a field it is the editor schema's, one message for every fld_ member. */
export function pendingGalleryMessage(field?: string): string {
  return field
    ? l10n.t('Gallery field {0} is pending (null), so the spot needs "state": 2 until its media are uploaded.', field)
    : l10n.t('This gallery field is pending (null), so the spot needs "state": 2 until its media are uploaded.');
}

/** A gallery id as the service gives them: a positive whole number, read exactly (the topic rules, the media check and the engine ask this). */
export function isGalleryId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}
