// A worksheet's rows as they are read: the sheet's part inflated and parsed a chunk at a time, each
// row handed out with its cells as text (a 100,000-row sheet is never held whole). A cell's text
// is its value as the workbook stores it: a shared or inline string (rich text as its plain text),
// a number as written, TRUE or FALSE, a formula's cached value, an error as its code, and a number
// in a date format as the date it stands for (excelDates.ts).
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { l10n } from '../../../text/l10n';
import { columnLetters, columnOfReference } from '../cellReference';
import { serialToIso } from './excelDates';
import { partParser, type WorkbookParts } from './workbookParts';

/** What a sheet can hold (ECMA-376, as Excel has it): a row or column beyond is damage, not a reason to make a billion empty lines. */
const LAST_ROW = 1_048_576;
const LAST_COLUMN = 16_384;

export interface SheetRow {
  /** The sheet's row number (1-based), as a spreadsheet shows it. */
  number: number;
  /** By column (1-based: A is 1). */
  cells: Map<number, string>;
}

export async function* sheetRows(stream: Readable, parts: Pick<WorkbookParts, 'sharedStrings' | 'dateStyles' | 'date1904'>): AsyncGenerator<SheetRow> {
  const ready: SheetRow[] = [];
  let row: SheetRow | undefined;
  let lastRow = 0;
  let cell: { column: number; type: string; style: number; value: string[] } | undefined;
  let lastColumn = 0;
  let collecting: 'value' | 'inline' | undefined;
  let inPhonetic = false;
  let damage: Error | undefined;
  /** The sheet is damaged here: the rows before are handed out, then this is thrown (as the XML parser's errors are). */
  const damaged = (reason: string) => {
    damage ??= new Error(reason);
    row = undefined;
    cell = undefined;
  };
  const parser = partParser({
    onOpen: (name, attributes) => {
      if (damage) return;
      if (name === 'row') {
        // Rows without an `r` follow the one before (ECMA-376 allows leaving it out).
        lastRow = attributes.r ? Number(attributes.r) : lastRow + 1;
        if (!Number.isInteger(lastRow) || lastRow < 1 || lastRow > LAST_ROW)
          return damaged(l10n.t('row {0} is not a row a sheet can have (1 to {1})', attributes.r ?? lastRow, LAST_ROW));
        row = { number: lastRow, cells: new Map() };
        lastColumn = 0;
      } else if (name === 'c' && row) {
        const column = (attributes.r ? columnOfReference(attributes.r) : undefined) ?? lastColumn + 1;
        if (column > LAST_COLUMN)
          return damaged(l10n.t('row {0} has a cell beyond the last column a sheet can have ({1})', row.number, columnLetters(LAST_COLUMN)));
        lastColumn = column;
        cell = { column, type: attributes.t ?? 'n', style: Number(attributes.s ?? 0), value: [] };
      } else if (name === 'v' && cell) collecting = 'value';
      else if (name === 'rPh') inPhonetic = true;
      else if (name === 't' && cell && cell.type === 'inlineStr' && !inPhonetic) collecting = 'inline';
    },
    onClose: (name) => {
      if (name === 'v' || name === 't') collecting = undefined;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'c' && cell && row) {
        const text = cellText(cell, parts);
        if (text === undefined)
          return damaged(
            l10n.t('cell {0} refers to shared string {1}, which the workbook does not have', `${columnLetters(cell.column)}${row.number}`, cell.value.join('')),
          );
        if (text !== '') row.cells.set(cell.column, text);
        cell = undefined;
      } else if (name === 'row' && row && !damage) {
        ready.push(row);
        row = undefined;
      }
    },
    onText: (text) => {
      if (collecting && cell) cell.value.push(text);
    },
  });
  // The first damage in the XML: the rows complete before it are handed out, then it is thrown.
  parser.on('error', (error: Error) => damaged(error.message));
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream) {
    if (!damage) parser.write(decoder.write(chunk as Buffer));
    while (ready.length > 0) yield ready.shift()!;
    if (damage) throw damage;
  }
  parser.write(decoder.end()).close();
  while (ready.length > 0) yield ready.shift()!;
  if (damage) throw damage;
}

/** The cell's text; undefined for a shared string the workbook does not have. */
function cellText(
  cell: { type: string; style: number; value: string[] },
  parts: Pick<WorkbookParts, 'sharedStrings' | 'dateStyles' | 'date1904'>,
): string | undefined {
  const value = cell.value.join('');
  switch (cell.type) {
    case 's':
      // No value at all (<c t="s"/>): a blank cell, as some exporters write one; Number('') would be string 0.
      if (value === '') return '';
      return /^\d+$/.test(value) ? parts.sharedStrings[Number(value)] : undefined;
    case 'b':
      return value === '1' ? 'TRUE' : value === '0' ? 'FALSE' : value;
    case 'inlineStr':
    case 'str':
    case 'e':
      return value;
    case 'd':
      // An ISO 8601 date cell (Strict workbooks): its date and time, without a zone.
      return value.replace(/Z$/, '').replace(/\.\d+$/, '');
    default: {
      const date = parts.dateStyles.get(cell.style);
      if (date === undefined || value === '') return value;
      return serialToIso(Number(value), parts.date1904, date.numFmtId, date.formatCode) ?? value;
    }
  }
}
