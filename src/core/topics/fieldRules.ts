// One value against its field's definition: the type, then the type's own limits. Each finding
// says where inside the value it is (an element of a categories array) and which rule fired.
import { categoryKeyOf, describeCategoryKeys, keyOfLabel, categoryKeyLiteral, type CategoryField } from './categories';
import { TOPIC_RULES, type TopicRule } from './topicProblem';
import { fieldTitle, type TopicField } from './topicSchema';
import { l10n } from '../text/l10n';
import { isGalleryId } from '../api/spotSchema';

export interface FieldFinding {
  /** Inside the member's value: [] for the value itself, [index] for an element of an array. */
  at: number[];
  message: string;
  rule: TopicRule;
}

export const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DATETIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export function checkFieldValue(name: string, spec: TopicField, value: unknown): FieldFinding[] {
  const title = fieldTitle(name, spec);
  if (value === null) {
    // null is a pending gallery; for any other field it is no value, which only a required field minds.
    if (spec.type === 'gallery' || !spec.required) return [];
    return [{ at: [], message: l10n.t('{0} is required; null is no value.', title), rule: TOPIC_RULES.requiredMissing }];
  }
  /** The value is not of the field's type: `expected` words what the type accepts, given the title and the value's description. */
  const wrongType = (expected: (title: string, actual: string) => string): FieldFinding[] => [
    { at: [], message: expected(title, describeValue(value)), rule: TOPIC_RULES.wrongType },
  ];
  switch (spec.type) {
    case 'text': {
      if (typeof value !== 'string') return wrongType((field, actual) => l10n.t('{0} must be a text; it is {1}.', field, actual));
      // Characters as people count them (code points); counted only when the UTF-16 length, never
      // smaller, is over the limit, since long texts are common and counting costs.
      if (spec.maxLength === undefined || value.length <= spec.maxLength) return [];
      const length = countCodePoints(value);
      if (length > spec.maxLength) {
        return [{ at: [], message: l10n.t('{0} is {1} characters long; at most {2} are allowed.', title, length, spec.maxLength), rule: TOPIC_RULES.tooLong }];
      }
      return [];
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || (spec.type === 'integer' && !Number.isInteger(value))) {
        return spec.type === 'integer'
          ? wrongType((field, actual) => l10n.t('{0} must be a whole number; it is {1}.', field, actual))
          : wrongType((field, actual) => l10n.t('{0} must be a number; it is {1}.', field, actual));
      }
      // What a JSON reader could not hold as written: the document's own digits are what is sent.
      if (!Number.isFinite(value)) {
        const message =
          value > 0
            ? l10n.t('{0} is beyond the largest number that can be stored (about 1.8e308).', title)
            : l10n.t('{0} is below the smallest number that can be stored (about -1.8e308).', title);
        return [{ at: [], message, rule: TOPIC_RULES.outOfRange }];
      }
      if (spec.type === 'integer' && !Number.isSafeInteger(value)) {
        return [
          {
            at: [],
            message: l10n.t('{0} is a whole number beyond {1}, which cannot be sent exactly.', title, Number.MAX_SAFE_INTEGER),
            rule: TOPIC_RULES.outOfRange,
          },
        ];
      }
      const { minimum, maximum } = spec;
      if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
        const message =
          minimum !== undefined && maximum !== undefined
            ? l10n.t('{0} must be between {1} and {2}; it is {3}.', title, minimum, maximum, value)
            : minimum !== undefined
              ? l10n.t('{0} must be at least {1}; it is {2}.', title, minimum, value)
              : l10n.t('{0} must be at most {1}; it is {2}.', title, maximum!, value);
        return [{ at: [], message, rule: TOPIC_RULES.outOfRange }];
      }
      return [];
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : wrongType((field, actual) => l10n.t('{0} must be true or false; it is {1}.', field, actual));
    case 'date':
      if (typeof value === 'string' && isDate(value)) return [];
      // Written right, but no day of the calendar ("2023-02-29"): the format is not what to change.
      if (typeof value === 'string' && DATE_PATTERN.test(value)) return wrongType((field) => l10n.t('{0}: {1} is no day of the calendar.', field, value));
      return wrongType((field, actual) => l10n.t('{0} must be a date "YYYY-MM-DD", e.g. "2024-05-31"; it is {1}.', field, actual));
    case 'datetime':
      if (typeof value === 'string' && isDateTime(value)) return [];
      if (typeof value === 'string' && DATETIME_PATTERN.test(value))
        return wrongType((field) => l10n.t('{0}: {1} is no moment of the calendar (a day that does not exist, or a time past 23:59:59).', field, value));
      return wrongType((field, actual) => l10n.t('{0} must be a date and time "YYYY-MM-DD HH:MM:SS", e.g. "2024-05-31 14:30:00"; it is {1}.', field, actual));
    case 'category':
      if (Array.isArray(value))
        return wrongType((field, actual) => l10n.t('{0} must be one key of its values: {1}; it is {2}.', field, describeCategoryKeys(spec), actual));
      return categoryFindings(title, spec, value, []);
    case 'categories':
      if (!Array.isArray(value))
        return wrongType((field, actual) => l10n.t('{0} must be an array of keys of its values: {1}; it is {2}.', field, describeCategoryKeys(spec), actual));
      return value.flatMap((element, index) => categoryFindings(title, spec, element, [index]));
    case 'gallery':
      // Gallery ids are positive whole numbers (the service's ids), read exactly; null is handled above.
      if (isGalleryId(value)) return [];
      return [
        {
          at: [],
          message: l10n.t(
            '{0} is a gallery: null while its media are pending, else a gallery id (a positive whole number); it is {1}.',
            title,
            describeValue(value),
          ),
          rule: TOPIC_RULES.invalidGallery,
        },
      ];
  }
}

function categoryFindings(title: string, spec: CategoryField, value: unknown, at: number[]): FieldFinding[] {
  if (categoryKeyOf(spec, value) !== undefined) return [];
  const labelOf = keyOfLabel(spec, value);
  if (labelOf !== undefined) {
    return [
      {
        at,
        message: l10n.t('{0} is the label of key {1} of {2}: send the key, {3}.', JSON.stringify(value), labelOf, title, categoryKeyLiteral(labelOf)),
        rule: TOPIC_RULES.categoryLabel,
      },
    ];
  }
  if (typeof value !== 'string' && typeof value !== 'number') {
    return [
      {
        at,
        message: l10n.t('{0} takes keys of its values ({1}); {2} is not one.', title, describeCategoryKeys(spec), describeValue(value)),
        rule: TOPIC_RULES.wrongType,
      },
    ];
  }
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    // Its digits are lost in reading: quoting the rounded number would name another key.
    return [
      {
        at,
        message: l10n.t('{0}: a whole number this large cannot be read exactly; write the key as a text, in quotes.', title),
        rule: TOPIC_RULES.unknownCategory,
      },
    ];
  }
  return [
    {
      at,
      message: l10n.t('{0} is not a key of {1}; allowed: {2}.', JSON.stringify(value), title, describeCategoryKeys(spec)),
      rule: TOPIC_RULES.unknownCategory,
    },
  ];
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

/** "a text", "the number 3", "an array", for "…; it is …" and "… is not one". */
function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    return value.length <= 40
      ? l10n.t({
          message: 'the text {0}',
          args: [JSON.stringify(value)],
          comment: ['A value of the wrong type, as in "… must be a number; it is the text "abc"."'],
        })
      : l10n.t({ message: 'a text', args: [], comment: ['A value of the wrong type, as in "… must be a number; it is a text."'] });
  }
  if (typeof value === 'number')
    return l10n.t({ message: 'the number {0}', args: [value], comment: ['A value of the wrong type, as in "… must be a text; it is the number 3."'] });
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return Array.isArray(value)
    ? l10n.t({ message: 'an array', args: [], comment: ['A value of the wrong type, as in "… must be a number; it is an array."'] })
    : l10n.t({ message: 'an object', args: [], comment: ['A value of the wrong type, as in "… must be a number; it is an object."'] });
}
