// A workbook opened as both its readers open it (the table, and the editor's Show Rows): its parts
// (sheets, shared strings, styles, date system) and the sheet a mapping names, refused in the same
// words wherever it is asked for.
import { l10n } from '../../../text/l10n';
import { ArchiveError, ZipArchive } from '../archive/zipArchive';
import { TableReadError } from '../tableReadError';
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

/** The sheet a mapping names (`source.sheet`: a name, or a 1-based place), the first when it names none. */
export function chooseSheet(path: string, sheets: WorkbookSheet[], wanted: string | number | undefined): WorkbookSheet {
  if (wanted === undefined) return sheets[0];
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
