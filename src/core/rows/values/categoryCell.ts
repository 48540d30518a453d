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

/** The key a cell stands for in category field `name`; for a categories field, call it per element. */
export function categoryKeyOfCell(cell: string, name: string, field: CategoryField): CellResult<string> {
  if (isEmptyCell(cell)) return NO_VALUE;
  const text = cell.trim();
  const key = categoryKeyOf(field, text) ?? keyOfLabel(field, text);
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
