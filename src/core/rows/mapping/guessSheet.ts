// Which sheet of a workbook a proposed mapping is for: the first whose columns and first rows
// hold coordinates (a form's main sheet), else the first sheet. The others are named, and a
// repeat group's sheet (KoBoToolbox writes `_parent_index` into it) is said to be one: its rows
// belong to the main sheet's rows, and are not joined to them.
import { l10n } from '../../text/l10n';
import { previewTable } from '../read/openTable';
import type { RowReadProblem, SourceRow, SourceTable } from '../read/types';
import { guessCoordinates } from './guessCoordinates';
import { withMembers } from '../../objects/withMembers';

type Preview = { table: SourceTable; sample: SourceRow[]; problems: RowReadProblem[] };

/** The preview of the sheet to propose a mapping for, and what was decided about the sheets. */
export async function previewForMapping(path: string): Promise<Preview & { notes: string[] }> {
  const first = await previewTable(path);
  const { sheets } = first.table;
  if (first.table.format.format !== 'xlsx' || !sheets || sheets.length < 2) return withMembers(first, { notes: [] as string[] });
  const previews: Array<{ name: string; preview: Preview }> = [{ name: sheets[0], preview: first }];
  for (const name of sheets.slice(1)) previews.push({ name, preview: await previewTable(path, { sheet: name }) });
  const placed = previews.find(({ preview }) => {
    const guess = guessCoordinates(preview.table.columns, preview.sample);
    return guess.latitude !== undefined && guess.longitude !== undefined;
  });
  const chosen = placed ?? previews[0];
  const others = previews.filter((each) => each !== chosen);
  const describe = ({ name, preview }: { name: string; preview: Preview }) =>
    preview.table.columns.includes('_parent_index')
      ? l10n.t('"{0}" (a repeat group: its rows belong to rows of the main sheet, and are not joined)', name)
      : `"${name}"`;
  const notes = [
    placed
      ? l10n.t('source.sheet: "{0}", the sheet with coordinates; the others: {1}', chosen.name, others.map(describe).join(', '))
      : l10n.t('source.sheet: "{0}", the first (no sheet has coordinate columns); the others: {1}', chosen.name, others.map(describe).join(', ')),
  ];
  return withMembers(chosen.preview, { notes });
}
