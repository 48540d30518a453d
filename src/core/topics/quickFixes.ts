// Quick fixes for the problems an author meets most, as text edits: computed from the document as
// it is now and the problem's rule (Diagnostic.code) and offset, so the editor needs nothing but
// the diagnostic to offer them. Each fix leaves the rest of the text exactly as it was.
import { findNodeAtOffset, parseTree, type Node } from 'jsonc-parser';
import { categoryKeyLiteral, isCategoryField, keyOfLabel } from './categories';
import { contains, documentTopic, memberAt, valueOf } from './documentTopic';
import { closestName, misspeltKnownMember } from './suggestMember';
import { modifyKeepingStyle, singleEdit } from '../documents/textEdits';
import { TOPIC_RULES } from './topicProblem';
import { fieldTitle, topicTitle, type TopicCatalog, type TopicField } from './topicSchema';
import { setSpotState, type SpotTextEdit } from '../documents/setSpotState';
import { SPOT_STATE } from '../api/spotSchema';
import { swapWouldFix } from '../geo/position';
import { l10n } from '../text/l10n';

export interface TopicQuickFix {
  title: string;
  edits: SpotTextEdit[];
  /** The fix to apply with one key stroke (Ctrl+. then Enter, or "Fix All"). */
  preferred: boolean;
}

export function topicQuickFixes(text: string, rule: string, offset: number, catalog: TopicCatalog, now = new Date()): TopicQuickFix[] {
  switch (rule) {
    case TOPIC_RULES.misspeltMember:
    case TOPIC_RULES.undefinedField:
      return renameMember(text, offset, catalog);
    case TOPIC_RULES.categoryLabel:
      return labelToKey(text, offset, catalog);
    case TOPIC_RULES.requiredMissing:
      return addRequiredFields(text, catalog, now);
    case TOPIC_RULES.pendingNeedsState2: {
      const result = setSpotState(text, SPOT_STATE.inProgress);
      return result.ok && result.edits.length > 0
        ? [{ title: l10n.t('Set "state": 2 (in progress) while galleries are pending'), edits: result.edits, preferred: true }]
        : [];
    }
    case TOPIC_RULES.duplicateMember:
      return removeDuplicate(text, offset);
    case TOPIC_RULES.swappedCoordinates:
    case TOPIC_RULES.outsideArea:
      return swapCoordinates(text, catalog);
    default:
      return [];
  }
}

function renameMember(text: string, offset: number, catalog: TopicCatalog): TopicQuickFix[] {
  const { layout, definition } = documentTopic(text, catalog);
  const member = memberAt(layout, offset);
  if (!member) return [];
  const present = new Set(layout.members.map((candidate) => candidate.name));
  const known = misspeltKnownMember(member.name);
  const meant =
    known ??
    (definition
      ? closestName(
          member.name,
          Object.keys(definition.fields).filter((name) => !present.has(name)),
        )
      : undefined);
  // Renaming onto a member that is already there would only make a duplicate.
  if (!meant || present.has(meant)) return [];
  const title = definition && !known ? fieldTitle(meant, definition.fields[meant]) : meant;
  return [{ title: l10n.t('Rename {0} to {1}', member.name, title), edits: [{ ...member.key, content: JSON.stringify(meant) }], preferred: true }];
}

function labelToKey(text: string, offset: number, catalog: TopicCatalog): TopicQuickFix[] {
  const { layout, definition } = documentTopic(text, catalog);
  const member = memberAt(layout, offset);
  const spec = member && definition ? definition.fields[member.name] : undefined;
  if (!member || !isCategoryField(spec)) return [];
  const span = member.items?.find((item) => contains(item, offset)) ?? member.value;
  const label = valueOf(text, { value: span });
  const key = keyOfLabel(spec, label);
  if (key === undefined) return [];
  const literal = categoryKeyLiteral(key);
  return [{ title: l10n.t('Replace {0} with its key {1}', JSON.stringify(label), literal), edits: [{ ...span, content: literal }], preferred: true }];
}

function addRequiredFields(text: string, catalog: TopicCatalog, now: Date): TopicQuickFix[] {
  const { layout, definition } = documentTopic(text, catalog);
  if (!definition || !layout.object) return [];
  const values = new Map(layout.members.map((member) => [member.name, valueOf(text, member)]));
  const wanted = Object.entries(definition.fields).filter(
    ([name, spec]) => spec.required && (!values.has(name) || (values.get(name) === null && spec.type !== 'gallery')),
  );
  if (wanted.length === 0) return [];
  let next = text;
  for (const [name, spec] of wanted) next = modifyKeepingStyle(next, ['data', 'attributes', name], placeholder(spec, now));
  // A gallery added as null is pending, and a spot with a pending gallery needs state 2.
  const addsPending = wanted.some(([, spec]) => spec.type === 'gallery');
  if (addsPending && values.get('state') !== SPOT_STATE.inProgress) next = modifyKeepingStyle(next, ['data', 'attributes', 'state'], SPOT_STATE.inProgress);
  const names = wanted.map(([name, spec]) => fieldTitle(name, spec));
  const title =
    wanted.length === 1
      ? addsPending
        ? l10n.t('Add the required field {0} (and "state": 2 for the pending gallery)', names[0])
        : l10n.t('Add the required field {0}', names[0])
      : addsPending
        ? l10n.t('Add the {0} required fields of {1} (and "state": 2 for the pending gallery)', wanted.length, topicTitle(definition))
        : l10n.t('Add the {0} required fields of {1}', wanted.length, topicTitle(definition));
  return [{ title, edits: [singleEdit(text, next)], preferred: false }];
}

/** A valid value to start from, for the author to replace. */
export function placeholder(spec: TopicField, now: Date): unknown {
  const pad = (value: number) => String(value).padStart(2, '0');
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  switch (spec.type) {
    case 'text':
      return '';
    case 'number':
    case 'integer': {
      const low = spec.minimum ?? (spec.maximum !== undefined && spec.maximum < 0 ? spec.maximum : 0);
      return spec.type === 'integer' ? Math.ceil(low) : low;
    }
    case 'boolean':
      return false;
    case 'date':
      return date;
    case 'datetime':
      return `${date} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
    case 'category':
    case 'categories': {
      const first = JSON.parse(categoryKeyLiteral(Object.keys(spec.values)[0])) as unknown;
      return spec.type === 'category' ? first : [first];
    }
    case 'gallery':
      return null;
  }
}

/**
 * Swaps the characters of the latitude's and the longitude's values, exactly as written (6.50,
 * 1e1 stay so), when swapping is the fix (swapWouldFix): judged on the text as it is now, since
 * the diagnostic may be older. Nothing when either is given twice: which pair is meant is unclear.
 */
function swapCoordinates(text: string, catalog: TopicCatalog): TopicQuickFix[] {
  const { layout, definition } = documentTopic(text, catalog);
  const latitudes = layout.members.filter((member) => member.name === 'latitude');
  const longitudes = layout.members.filter((member) => member.name === 'longitude');
  if (latitudes.length !== 1 || longitudes.length !== 1) return [];
  const [latitude, longitude] = [latitudes[0], longitudes[0]];
  const [latitudeValue, longitudeValue] = [valueOf(text, latitude), valueOf(text, longitude)];
  if (typeof latitudeValue !== 'number' || typeof longitudeValue !== 'number' || !swapWouldFix(latitudeValue, longitudeValue, definition?.area?.bbox))
    return [];
  const source = (span: { offset: number; length: number }) => text.slice(span.offset, span.offset + span.length);
  return [
    {
      title: l10n.t('Swap latitude and longitude (latitude {0}, longitude {1})', longitudeValue, latitudeValue),
      edits: [
        { ...latitude.value, content: source(longitude.value) },
        { ...longitude.value, content: source(latitude.value) },
      ],
      preferred: true,
    },
  ];
}

/** Removes the member (with its comma) whose name or value is at the offset: the later of two with the same name. */
function removeDuplicate(text: string, offset: number): TopicQuickFix[] {
  const root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  let node: Node | undefined = root ? findNodeAtOffset(root, offset, true) : undefined;
  while (node && node.type !== 'property') node = node.parent;
  const object = node?.parent;
  if (!node || !object?.children) return [];
  const index = object.children.indexOf(node);
  const name = String(node.children?.[0]?.value);
  const siblings = object.children;
  // From the end of the member before (taking the comma between) to this member's end; the first
  // member instead goes with the comma after it.
  const start = index > 0 ? siblings[index - 1].offset + siblings[index - 1].length : node.offset;
  const end = index > 0 ? node.offset + node.length : index + 1 < siblings.length ? siblings[index + 1].offset : node.offset + node.length;
  return [{ title: l10n.t('Remove this duplicate {0}', name), edits: [{ offset: start, length: end - start, content: '' }], preferred: true }];
}
