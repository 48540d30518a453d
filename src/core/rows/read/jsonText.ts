// JSON text parsed into jsonc-parser's tree (which keeps every value's offset), strictly: JSON, not
// the JSON with comments and trailing commas jsonc-parser also reads. One place, so GeoJSON files
// and NDJSON lines are held to the same rule.
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { firstTooDeepInText } from '../../documents/nesting';
import { l10n } from '../../text/l10n';

/** The tree, or the first error, or where it nests too deep to parse; undefined for text with no JSON value at all. */
export function parseJson(text: string): { node: Node } | { error: ParseError } | { tooDeep: number } | undefined {
  // jsonc-parser recurses for each level: a value thousands deep would run it out of stack.
  const tooDeep = firstTooDeepInText(text);
  if (tooDeep !== undefined) return { tooDeep };
  const errors: ParseError[] = [];
  const node = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0) return { error: errors[0] };
  return node ? { node } : undefined;
}

/** jsonc-parser's error codes in words ("CommaExpected": "comma expected"). */
export function describeParseError(error: Pick<ParseError, 'error'>): string {
  const code = printParseErrorCode(error.error);
  switch (code) {
    case 'InvalidSymbol':
      return l10n.t('invalid symbol');
    case 'InvalidNumberFormat':
      return l10n.t('invalid number format');
    case 'PropertyNameExpected':
      return l10n.t('property name expected');
    case 'ValueExpected':
      return l10n.t('value expected');
    case 'ColonExpected':
      return l10n.t('colon expected');
    case 'CommaExpected':
      return l10n.t('comma expected');
    case 'CloseBraceExpected':
      return l10n.t('close brace expected');
    case 'CloseBracketExpected':
      return l10n.t('close bracket expected');
    case 'EndOfFileExpected':
      return l10n.t('end of file expected');
    case 'InvalidCommentToken':
      return l10n.t('invalid comment token');
    case 'UnexpectedEndOfComment':
      return l10n.t('unexpected end of comment');
    case 'UnexpectedEndOfString':
      return l10n.t('unexpected end of string');
    case 'UnexpectedEndOfNumber':
      return l10n.t('unexpected end of number');
    case 'InvalidUnicode':
      return l10n.t('invalid unicode');
    case 'InvalidEscapeCharacter':
      return l10n.t('invalid escape character');
    case 'InvalidCharacter':
      return l10n.t('invalid character');
    default:
      return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  }
}
