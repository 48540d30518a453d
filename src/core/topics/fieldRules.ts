// One value against its field's definition: the type, then the type's own limits. Each finding
// says where inside the value it is (an element of a categories array) and which rule fired.
import { categoryKeyOf, describeCategoryKeys, keyOfLabel, categoryKeyLiteral, type CategoryField } from './categories';
import { TOPIC_RULES, type TopicRule } from './topicProblem';
import { fieldTitle, type TopicField } from './topicSchema';

export interface FieldFinding {
  /** Inside the member's value: [] for the value itself, [index] for an element of an array. */
  at: number[];
  message: string;
  rule: TopicRule;
}

export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DATETIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** What each type accepts, in the words messages use ("must be …"). */
const EXPECTS: Record<TopicField['type'], string> = {
  text: 'a text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  date: 'a date "YYYY-MM-DD"',
  datetime: 'a date and time "YYYY-MM-DD HH:MM:SS"',
  category: 'one key of its values',
  categories: 'an array of keys of its values',
  gallery: 'null (media pending) or a gallery id',
};

export function checkFieldValue(name: string, spec: TopicField, value: unknown): FieldFinding[] {
  const title = fieldTitle(name, spec);
  if (value === null) {
    // null is a pending gallery; for any other field it is no value, which only a required field minds.
    if (spec.type === 'gallery' || !spec.required) return [];
    return [{ at: [], message: `${title} is required; null is no value.`, rule: TOPIC_RULES.requiredMissing }];
  }
  const wrongType = (extra = ''): FieldFinding[] => [
    { at: [], message: `${title} must be ${EXPECTS[spec.type]}${extra}; it is ${describeValue(value)}.`, rule: TOPIC_RULES.wrongType },
  ];
  switch (spec.type) {
    case 'text': {
      if (typeof value !== 'string') return wrongType();
      // Characters as people count them (code points); counted only when the UTF-16 length, never
      // smaller, is over the limit, since long texts are common and counting costs.
      if (spec.maxLength === undefined || value.length <= spec.maxLength) return [];
      const length = countCodePoints(value);
      if (length > spec.maxLength) {
        return [{ at: [], message: `${title} is ${length} characters long; at most ${spec.maxLength} are allowed.`, rule: TOPIC_RULES.tooLong }];
      }
      return [];
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || (spec.type === 'integer' && !Number.isInteger(value))) return wrongType();
      const { minimum, maximum } = spec;
      if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
        const range = minimum !== undefined && maximum !== undefined ? `between ${minimum} and ${maximum}` : minimum !== undefined ? `at least ${minimum}` : `at most ${maximum}`;
        return [{ at: [], message: `${title} must be ${range}; it is ${value}.`, rule: TOPIC_RULES.outOfRange }];
      }
      return [];
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : wrongType();
    case 'date':
      return typeof value === 'string' && isDate(value) ? [] : wrongType(', e.g. "2024-05-31"');
    case 'datetime':
      return typeof value === 'string' && isDateTime(value) ? [] : wrongType(', e.g. "2024-05-31 14:30:00"');
    case 'category':
      if (Array.isArray(value)) return wrongType(`: ${describeCategoryKeys(spec)}`);
      return categoryFindings(title, spec, value, []);
    case 'categories':
      if (!Array.isArray(value)) return wrongType(`: ${describeCategoryKeys(spec)}`);
      return value.flatMap((element, index) => categoryFindings(title, spec, element, [index]));
    case 'gallery':
      // Gallery ids are positive whole numbers (the service's ids); null is handled above.
      if (typeof value === 'number' && Number.isInteger(value) && value > 0) return [];
      return [{ at: [], message: `${title} is a gallery: null while its media are pending, else a gallery id (a positive whole number); it is ${describeValue(value)}.`, rule: TOPIC_RULES.invalidGallery }];
  }
}

function categoryFindings(title: string, spec: CategoryField, value: unknown, at: number[]): FieldFinding[] {
  if (categoryKeyOf(spec, value) !== undefined) return [];
  const labelOf = keyOfLabel(spec, value);
  if (labelOf !== undefined) {
    return [{ at, message: `${JSON.stringify(value)} is the label of key ${labelOf} of ${title}: send the key, ${categoryKeyLiteral(labelOf)}.`, rule: TOPIC_RULES.categoryLabel }];
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    return [{ at, message: `${title} takes keys of its values (${describeCategoryKeys(spec)}); ${describeValue(value)} is not one.`, rule: TOPIC_RULES.wrongType }];
  }
  return [{ at, message: `${JSON.stringify(value)} is not a key of ${title}; allowed: ${describeCategoryKeys(spec)}.`, rule: TOPIC_RULES.unknownCategory }];
}

function countCodePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // A high surrogate followed by a low one is one character.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

export function isDate(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  return !!match && isCalendarDay(+match[1], +match[2], +match[3]);
}

export function isDateTime(text: string): boolean {
  const match = DATETIME_PATTERN.exec(text);
  return !!match && isCalendarDay(+match[1], +match[2], +match[3]) && +match[4] < 24 && +match[5] < 60 && +match[6] < 60;
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** "a text", "the number 3", "an array", for "…; it is …". */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length <= 40 ? `the text ${JSON.stringify(value)}` : 'a text';
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : 'an object';
}
