// Which part of a file a proposed mapping is for. A workbook's sheet: the first visible one whose
// columns and first rows hold coordinates (a form's main sheet), else the one the reader takes
// (the first visible sheet with values); the others are named, hidden ones as hidden,
// and a repeat group's sheet (KoBoToolbox writes `_parent_index` into it) is said to be one: its
// rows belong to the main sheet's rows, and are not joined to them. An archive's table: its main
// one (archiveTables), the others named likewise (ODK Central's repeat tables carry PARENT_KEY).
import { l10n } from '../../text/l10n';
import { isArchivePath, previewTable } from '../read/openTable';
import type { RowReadProblem, SourceRow, SourceTable } from '../read/types';
import { guessCoordinates } from './guessCoordinates';
import { TableReadError } from '../read/tableReadError';
import { withMembers } from '../../objects/withMembers';

type Preview = { table: SourceTable; sample: SourceRow[]; problems: RowReadProblem[] };

/** The preview of the sheet to propose a mapping for, and what was decided about the sheets. */
export async function previewForMapping(path: string): Promise<Preview & { notes: string[] }> {
  if (isArchivePath(path)) return previewArchiveTable(path);
  const first = await previewTable(path);
  // A folder of photos none of which has a place would make a mapping of nothing.
  if (first.table.format.format === 'photos' && first.sample.length === 0)
    throw new TableReadError(
      path,
      first.problems.length === 0
        ? l10n.t('it holds no photos (.jpg, .jpeg, .heic, .heif, .avif, .tif, .tiff, .png): no mapping was made.')
        : l10n.t('none of its first {0} photos has a GPS position in its EXIF tags, and a spot needs one: no mapping was made.', first.problems.length),
    );
  const { sheets, format } = first.table;
  // Hidden sheets (a form tool's settings, a lookup list of places with coordinates of its own)
  // are never proposed: the reader does not take them either.
  const hidden = new Set(first.table.hiddenSheets ?? []);
  const visible = (sheets ?? []).filter((name) => name !== format.sheet && !hidden.has(name));
  if (format.format !== 'xlsx' || visible.length === 0) return withMembers(first, { notes: [] as string[] });
  const previews: Array<{ name: string; preview?: Preview }> = [{ name: String(format.sheet), preview: first }];
  // An empty sheet (Excel's Sheet2 nobody wrote in) has no header to read: it is named, not proposed.
  for (const name of visible) previews.push({ name, preview: await previewTable(path, { sheet: name }).catch(skipUnreadable) });
  const placed = previews.find(({ preview }) => {
    if (!preview) return false;
    const guess = guessCoordinates(preview.table.columns, preview.sample);
    return (guess.latitude !== undefined && guess.longitude !== undefined) || guess.wkt !== undefined || guess.position !== undefined;
  });
  const chosen = placed ?? previews[0];
  const describe = ({ name, preview }: { name: string; preview?: Preview }) =>
    preview?.table.columns.includes('_parent_index')
      ? l10n.t('"{0}" (a repeat group: its rows belong to rows of the main sheet, and are not joined)', name)
      : `"${name}"`;
  const others = [...previews.filter((each) => each !== chosen).map(describe), ...[...hidden].map((name) => l10n.t('{0} (hidden)', `"${name}"`))].join(', ');
  const notes = [
    placed
      ? l10n.t('source.sheet: "{0}", the sheet with coordinates; the others: {1}', chosen.name, others)
      : l10n.t('source.sheet: "{0}", the first (no sheet has coordinate columns); the others: {1}', chosen.name, others),
  ];
  return withMembers(chosen.preview!, { notes });
}

/** A sheet that cannot be read as a table is no candidate; anything else that goes wrong is what it is. */
function skipUnreadable(error: unknown): undefined {
  if (error instanceof TableReadError) return undefined;
  throw error;
}

/** The archive's main table (of several shapefile layers, its main layer), and the others named. */
async function previewArchiveTable(path: string): Promise<Preview & { notes: string[] }> {
  const archives = require('../read/archiveTable') as typeof import('../read/archiveTable');
  const { main, others } = await archives.archiveTables(path);
  if (main === undefined || others.length === 0) return withMembers(await previewTable(path), { notes: [] as string[] });
  const chosen = await previewTable(path, { entry: main });
  const describe = async (name: string) => {
    const other = await previewTable(path, { entry: name }, 0).catch(() => undefined);
    const columns = other?.table.columns ?? [];
    return columns.includes('PARENT_KEY') || columns.includes('_parent_index')
      ? l10n.t('"{0}" (a repeat group: its rows belong to rows of the main table, and are not joined)', name)
      : `"${name}"`;
  };
  const described = [];
  for (const name of others) described.push(await describe(name));
  return withMembers(chosen, { notes: [l10n.t('source.entry: "{0}", the main table of the archive; the others: {1}', main, described.join(', '))] });
}
