// A workbook's cell as people name it: Sheet1!C12 (the sheet, the column's letters, the row), a
// sheet name that is not a plain word quoted as spreadsheets quote it ('My data'!C12).
import type { CellPosition } from './types';

/** 3 → "C"; 27 → "AA". */
function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

export function cellReference(sheet: string, at: CellPosition): string {
  const name = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) ? sheet : `'${sheet.replaceAll("'", "''")}'`;
  return `${name}!${columnLetters(at.column)}${at.line}`;
}

/** The sheet a table's cells are on, when it is a workbook's. */
export function sheetOf(format: { format: string; sheet?: string | number }): string | undefined {
  return format.format === 'xlsx' && typeof format.sheet === 'string' ? format.sheet : undefined;
}
