// A cell of a category column: people write the label ("Oak") as often as the key ("1"). The key
// is taken as it is, a label (compared without case and outer spaces) becomes its key, and
// anything else is a problem with the closest label suggested. When a cell is both a key and
// another category's label, it is the key: that is what a document would mean by it.
// Named apart from topics' categoryKeyOf (a document's value against the keys), which it uses.
import { categoryKeyOf, describeCategoryKeys, keyOfLabel, type CategoryField } from '../../topics/categories';
import { closestName } from '../../topics/suggestMember';
import { l10n } from '../../text/l10n';
import { fieldTitle } from '../../topics/topicSchema';
import { isEmptyCell, NO_VALUE, type CellResult } from './cellResult';

/** The key a cell stands for in category field `name`. */
export function categoryKeyOfCell(cell: string, name: string, field: CategoryField): CellResult<string> {
  if (isEmptyCell(cell)) return NO_VALUE;
  const text = cell.trim();
  const key = keyOfText(field, text);
  if (key !== undefined) return { value: key };
  const labels = Object.values(field.values).filter((label) => label.trim() !== '');
  // A misspelt label first (what people type), then a misspelt key.
  const meant = closestName(text, labels) ?? closestName(text, Object.keys(field.values));
  return {
    problem:
      meant === undefined
        ? l10n.t("'{0}' is not a category of {1}; allowed: {2}.", text, fieldTitle(name, field), describeCategoryKeys(field))
        : l10n.t("'{0}' is not a category of {1}; did you mean '{2}'?", text, fieldTitle(name, field), meant),
  };
}

/**
 * The keys a cell of a categories column stands for. People list them with ";" or ",", and form
 * tools write a select_multiple answer as the chosen choices' names separated by spaces ("storm
 * beetle": KoBoToolbox, ODK; their names hold no spaces). A label may hold a comma ("Gamma,
 * delta"), so the whole cell, then each ";" piece, is tried as one category before it is split on
 * ","; a piece that is still none is taken as its words only when every word is a key, so a
 * misspelt choice is refused whole, as any unknown value is. Without the topic's definition
 * nothing can be told apart: the pieces between ";" and "," go as written.
 */
export function categoryKeysOfCell(cell: string, name: string, field: CategoryField | undefined): CellResult<string[]> {
  if (isEmptyCell(cell)) return NO_VALUE;
  const text = cell.trim();
  if (!field) return { value: [...new Set(pieces(text, /[;,]/))] };
  const whole = keyOfText(field, text);
  if (whole !== undefined) return { value: [whole] };
  const keys: string[] = [];
  for (const part of pieces(text, ';')) {
    const key = keyOfText(field, part);
    if (key !== undefined) {
      keys.push(key);
      continue;
    }
    for (const piece of pieces(part, ',')) {
      const read = categoryKeyOfCell(piece, name, field);
      if ('value' in read) keys.push(read.value);
      else if ('problem' in read) {
        const words = piece.split(/\s+/);
        const wordKeys = words.map((word) => categoryKeyOf(field, word));
        if (words.length < 2 || wordKeys.includes(undefined)) return read;
        keys.push(...(wordKeys as string[]));
      }
    }
  }
  // A category named twice (by its key and by its label, say) is one choice, sent once.
  return { value: [...new Set(keys)] };
}

/** The key first, then a label: the one order every category cell is read in. */
function keyOfText(field: CategoryField, text: string): string | undefined {
  return categoryKeyOf(field, text) ?? keyOfLabel(field, text);
}

function pieces(text: string, separator: string | RegExp): string[] {
  return text
    .split(separator)
    .map((piece) => piece.trim())
    .filter(Boolean);
}
