// A cell of a table that is not text as people name it: a workbook's as Sheet1!C12 (the sheet,
// the column's letters, the row; a sheet name that is not a plain word quoted as spreadsheets
// quote it: 'My data'!C12), a shapefile's by its feature (its line is the feature's number), a
// photo folder's by its photo (its line is the photo's number in name order: IMG_0001.jpg), a
// table inside an archive by its entry, line and column (form.csv:12:3).
import type { CellPosition } from './types';

/** A photo folder's rows by line (line N: the Nth photo, or subfolder, in name order), keyed by its table's format. */
const photoRows = new WeakMap<object, readonly string[]>();

/** The photo folder's reader says how its rows are named: `format` is its table's. */
export function namePhotoRows(format: object, names: readonly string[]): void {
  photoRows.set(format, names);
}

/** 3 → "C"; 27 → "AA". */
export function columnLetters(column: number): string {
  let letters = '';
  for (let rest = column; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/** "C12" → 3; "AA7" → 27; undefined for anything else. */
export function columnOfReference(reference: string): number | undefined {
  const letters = /^([A-Z]{1,3})\d+$/.exec(reference)?.[1];
  if (!letters) return undefined;
  let column = 0;
  for (const letter of letters) column = column * 26 + (letter.charCodeAt(0) - 64);
  return column;
}

export function cellReference(sheet: string, at: CellPosition): string {
  const name = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) ? sheet : `'${sheet.replaceAll("'", "''")}'`;
  return `${name}!${columnLetters(at.column)}${at.line}`;
}

/** How messages name a cell of this table when not by line and column: a workbook's as Sheet1!C12, a shapefile's by its feature, a photo folder's by its photo. */
export function cellNamer(format: { format: string; sheet?: string | number; entry?: string }): ((at: CellPosition) => string) | undefined {
  const { sheet, entry } = format;
  if (format.format === 'xlsx' && typeof sheet === 'string') return (at) => cellReference(sheet, at);
  if (format.format === 'shapefile') return (at) => `feature ${at.line}`;
  if (format.format === 'photos') {
    const names = photoRows.get(format);
    return (at) => names?.[at.line - 1] ?? `photo ${at.line}`;
  }
  // A table inside an archive: its lines are the entry's, which the archive's name alone does not say.
  if (entry !== undefined) return (at) => `${entry}:${at.line}:${at.column}`;
  return undefined;
}
