// A workbook opened as both its readers open it (the table, and the editor's Show Rows): its parts
// (sheets, shared strings, styles, date system) and the sheet a mapping names (or the one taken
// when it names none), refused in the same words wherever it is asked for.
import { l10n } from '../../../text/l10n';
import { ArchiveError, ZipArchive } from '../archive/zipArchive';
import { TableReadError } from '../tableReadError';
import { sheetRows } from './sheetRows';
import { readWorkbookParts, WorkbookError, type WorkbookParts, type WorkbookSheet } from './workbookParts';

/** The workbook's archive and parts; what is wrong with the file is its TableReadError. Close the archive when done. */
export async function openParts(path: string): Promise<{ archive: ZipArchive; parts: WorkbookParts }> {
  const archive = await ZipArchive.forTable(path);
  try {
    return { archive, parts: await readWorkbookParts(archive) };
  } catch (error) {
    archive.close();
    if (error instanceof WorkbookError || error instanceof ArchiveError) throw new TableReadError(path, error.message);
    throw new TableReadError(path, l10n.t('the workbook cannot be read ({0})', (error as Error).message));
  }
}

/**
 * The sheet a mapping names (`source.sheet`: a name, or a 1-based place among all the sheets,
 * hidden ones too). When it names none: the first visible sheet with a value. Exports often begin
 * with a hidden sheet (a form tool's settings, a lookup list) or an empty one Excel left, and
 * neither is the table anyone means; a workbook of hidden or empty sheets only gets its first.
 */
export async function chooseSheet(path: string, archive: ZipArchive, parts: WorkbookParts, wanted: string | number | undefined): Promise<WorkbookSheet> {
  const { sheets } = parts;
  if (wanted === undefined) {
    const visible = sheets.filter((sheet) => !sheet.hidden);
    const candidates = visible.length > 0 ? visible : sheets;
    for (const sheet of candidates) if (await hasValue(archive, parts, sheet)) return sheet;
    return candidates[0];
  }
  const found = typeof wanted === 'number' ? sheets[wanted - 1] : sheets.find((sheet) => sheet.name === wanted);
  if (found) return found;
  throw new TableReadError(
    path,
    typeof wanted === 'number'
      ? l10n.t(
          'the workbook has {0} sheets, so there is no sheet {1}: its sheets are {2}',
          sheets.length,
          wanted,
          sheets.map((sheet) => `"${sheet.name}"`).join(', '),
        )
      : l10n.t('the workbook has no sheet "{0}": its sheets are {1}', wanted, sheets.map((sheet) => `"${sheet.name}"`).join(', ')),
  );
}

/** For SourceTable.detected: which sheet chooseSheet took when the mapping names none, among which (hidden ones said so). */
export function sheetChoiceNote(sheets: WorkbookSheet[], chosen: WorkbookSheet): string {
  const names = sheets.map((sheet) => (sheet.hidden ? l10n.t('{0} (hidden)', sheet.name) : sheet.name)).join(', ');
  return chosen === sheets[0]
    ? l10n.t('sheet "{0}" (the first of {1}: {2})', chosen.name, sheets.length, names)
    : l10n.t('sheet "{0}" (the first visible sheet with values of {1}: {2})', chosen.name, sheets.length, names);
}

/** The sheet has a cell with a value. A sheet that cannot be read counts as one, so that its reading says what is wrong with it. */
async function hasValue(archive: ZipArchive, parts: WorkbookParts, sheet: WorkbookSheet): Promise<boolean> {
  try {
    for await (const row of sheetRows(await archive.stream(sheet.part), parts)) if (row.cells.size > 0) return true;
    return false;
  } catch {
    return true;
  }
}
