// A workbook's sheet as text (the editor's Show Rows): each row of the sheet one line of CSV, comma
// delimited and quoted as RFC 4180 quotes, and line N the sheet's row N, so the reader's cell
// positions (row, column number) name a line and a field of it. Rows the sheet skips are empty
// lines, and every other row has as many fields as the widest row. A line break inside a cell is
// shown as ↵ in its quoted field: a real one would move every row below it to another line.
// Cells are the reader's text (sheetRows.ts: dates as ISO dates, formulas as their cached values).
import { isCancellation, throwIfAborted } from '../../../api/errors';
import { l10n } from '../../../text/l10n';
import { TableReadError } from '../tableReadError';
import { sheetRows } from './sheetRows';
import { chooseSheet, openParts } from './openWorkbook';

export interface SheetText {
  /** The sheet shown, by name. */
  sheet: string;
  /** The workbook's sheets, in order. */
  sheets: string[];
  /** Line N is row N; as many lines as the sheet's last row. */
  text: string;
  /** Rows with a value, and the widest row's last column. */
  rows: number;
  columns: number;
  /** The sheet's XML is damaged (a download cut short): the text has the rows before the damage, and this says where it is. */
  unreadable?: string;
}

interface SheetTextOptions {
  /** By name or 1-based place, as a mapping's `source.sheet`; by default the one the table reads (chooseSheet). */
  sheet?: string | number;
  signal?: AbortSignal;
  /** Told the sheet's row number every PROGRESS_ROWS rows or so (a big sheet takes a while). */
  onProgress?: (row: number) => void;
}

const PROGRESS_ROWS = 5_000;
/** What makes a line in an editor (and what VS Code offers to remove: the Unicode line and paragraph separators). */
const LINE_BREAK = /\r\n|[\r\n\u2028\u2029]/g;

/** The sheet `options.sheet` of the workbook at `path` as text; a workbook or sheet that cannot be read at all is a TableReadError. */
export async function sheetText(path: string, options: SheetTextOptions = {}): Promise<SheetText> {
  throwIfAborted(options.signal);
  const { archive, parts } = await openParts(path);
  try {
    const sheet = await chooseSheet(path, archive, parts, options.sheet);
    let stream;
    try {
      stream = await archive.stream(sheet.part);
    } catch (error) {
      throw new TableReadError(path, (error as Error).message);
    }
    const lines: string[] = [];
    const fields: number[] = [];
    let rows = 0;
    let columns = 0;
    let unreadable: SheetText['unreadable'];
    let reportAt = PROGRESS_ROWS;
    try {
      for await (const row of sheetRows(stream, parts)) {
        throwIfAborted(options.signal);
        if (row.number >= reportAt) {
          options.onProgress?.(row.number);
          reportAt = row.number + PROGRESS_ROWS;
        }
        if (row.cells.size === 0) continue;
        const last = Math.max(...row.cells.keys());
        const cells = Array.from({ length: last }, (_, index) => csvField(row.cells.get(index + 1) ?? ''));
        while (lines.length < row.number) {
          lines.push('');
          fields.push(0);
        }
        lines[row.number - 1] = cells.join(',');
        fields[row.number - 1] = last;
        rows++;
        columns = Math.max(columns, last);
      }
    } catch (error) {
      if (isCancellation(error)) throw error;
      // What was read stands, as the reader keeps it (workbookTable.ts), in the reader's words.
      unreadable = l10n.t('the sheet cannot be read after row {0} ({1}): the rows after it are not read', lines.length, (error as Error).message);
    }
    const text = lines.map((line, index) => (fields[index] === 0 ? line : line + ','.repeat(columns - fields[index]))).join('\n');
    return { sheet: sheet.name, sheets: parts.sheets.map((each) => each.name), text, rows, columns, ...(unreadable ? { unreadable } : {}) };
  } finally {
    archive.close();
  }
}

/** A cell as a CSV field: quoted when it holds a comma, a quote or a line break (its quotes doubled). */
function csvField(value: string): string {
  if (!/[",\r\n\u2028\u2029]/.test(value)) return value;
  return `"${value.replaceAll('"', '""').replace(LINE_BREAK, '↵')}"`;
}
