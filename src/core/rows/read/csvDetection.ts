// What a CSV file's first rows say about how it is written: its delimiter, whether a tab-separated
// one quotes its cells, and its decimal separator. Each is judged on whole records of the file's
// first 64 KiB (SAMPLE_ROWS of them), read with the cell rules the rows are read with
// (csvCells.ts), so a delimiter inside a quoted cell counts for nothing.
import { l10n } from '../../text/l10n';
import { SAMPLE_ROWS } from './limits';
import { scanRecord, type QuoteChar, type ScannedRecord } from './csvCells';

/** The delimiters detection chooses among, in the order that breaks a tie. */
export const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'] as const;

/** A delimiter in words: a tab is not visible between quotes. */
export function describeDelimiter(delimiter: string): string {
  return delimiter === '\t' ? l10n.t({ message: 'tab', args: [], comment: ['the tab character, as the delimiter of a CSV file'] }) : `'${delimiter}'`;
}

/**
 * The complete records at the start of a text (at most `limit`; records whose cells are all empty
 * left out, as the rows leave them out). `complete`: the text is the whole file.
 */
export function sampleRecords(text: string, delimiter: string, complete: boolean, quote: QuoteChar = '"', limit = SAMPLE_ROWS + 1): ScannedRecord[] {
  const records: ScannedRecord[] = [];
  let offset = 0;
  while (offset < text.length && records.length < limit) {
    const record = scanRecord(text, offset, delimiter, complete, quote);
    if (!record.complete) break;
    if (record.cells.some((cell) => cell.value !== '')) records.push(record);
    offset = record.end;
  }
  return records;
}

/**
 * The delimiter among CANDIDATE_DELIMITERS that splits the header into more than one cell and the
 * most of the first rows into as many cells as the header; between equals, the one giving more
 * cells. Undefined when none splits the header (a table of one column).
 */
export function detectDelimiter(text: string, complete: boolean): string | undefined {
  let best: { delimiter: string; consistent: number; cells: number } | undefined;
  for (const delimiter of CANDIDATE_DELIMITERS) {
    const [header, ...rows] = sampleRecords(text, delimiter, complete);
    const cells = header?.cells.length ?? 0;
    if (cells < 2) continue;
    const consistent = rows.length === 0 ? 1 : rows.filter((row) => row.cells.length === cells).length / rows.length;
    if (!best || consistent > best.consistent || (consistent === best.consistent && cells > best.cells)) best = { delimiter, consistent, cells };
  }
  return best?.delimiter;
}

/**
 * Whether the writer ends its rows with a delimiter the header does not have (some tools write one
 * after every value): most of the first data rows have cells past the header's, all of them empty.
 * Only then are such cells that delimiter's; in a file whose rows match the header, a row ending
 * with one more (empty) cell is a value's delimiter left unquoted, every cell after it a column off.
 */
export function endsRowsWithDelimiter(rows: ReadonlyArray<ScannedRecord>, columns: number): boolean {
  const trailing = rows.filter((row) => row.cells.length > columns && row.cells.slice(columns).every((cell) => cell.value.trim() === '')).length;
  return trailing * 2 > rows.length;
}

export interface QuoteDetection {
  quote: QuoteChar;
  /** The cell that showed quotes are characters, for the user: its text as far as its first tab or line break, and its place in the record (0-based). */
  example?: { text: string; index: number };
}

/**
 * Whether tab-separated text quotes its cells. Spreadsheets quote a cell holding a tab, a line
 * break or a quote, as CSV does; GBIF's downloads and many database exports quote nothing, so a
 * remark may start with a quote (`"Big" oak`). A cell of the first rows that starts with a quote
 * not closed at its end, or never closed in the whole file, says quotes are characters ('');
 * otherwise they quote ('"').
 */
export function detectTabQuote(text: string, complete: boolean): QuoteDetection {
  let offset = 0;
  for (let count = 0; offset < text.length && count <= SAMPLE_ROWS; count++) {
    const record = scanRecord(text, offset, '\t', complete);
    const loose = record.looseQuote?.open;
    const open = loose ?? (complete ? record.openQuote : undefined);
    if (open !== undefined) {
      const index = loose === undefined ? record.cells.length : record.cells.findIndex((cell) => cell.start === open);
      const length = text.slice(open).search(/[\t\r\n]|$/);
      return { quote: '', example: { text: text.slice(open, open + length), index } };
    }
    if (!record.complete) break;
    offset = record.end;
  }
  return { quote: '"' };
}

// Numbers written with one separator and digits on both sides. "1,234" and "1.234" (one to three
// digits, then exactly three) may be a thousands separator as well as a decimal one: they decide
// nothing.
const COMMA_DECIMAL = /^[+-]?(\d+,\d+|\d{1,3}(\.\d{3})+,\d+)$/;
const DOT_DECIMAL = /^[+-]?(\d+\.\d+|\d{1,3}(,\d{3})+\.\d+)$/;
const EITHER = /^[+-]?\d{1,3}[.,]\d{3}$/;

export interface DecimalDetection {
  separator: '.' | ',';
  /** A cell that decided it, for the user: its text and column. */
  example?: { text: string; column: string };
  /** Only cells such as "1,234" were seen, which may group thousands or hold decimals: the separator is the delimiter's usual one. */
  undecided?: true;
}

/**
 * The decimal separator the data rows' numeric-looking cells are written with: ',' when more of
 * them are written with a decimal comma than with a point, else '.'. When the only such cells are
 * ones like "1,234" or "16.047" (a US population, a Viennese count of inhabitants), which may be
 * either, ',' for a ';'-separated file and '.' for any other.
 */
export function detectDecimalSeparator(rows: ReadonlyArray<ScannedRecord>, columns: readonly string[], delimiter: string): DecimalDetection {
  const plain = { ',': [] as Example[], '.': [] as Example[] };
  const either = { ',': [] as Example[], '.': [] as Example[] };
  // A place's numbers in one cell count only where no number cell decides: ODK and KoBo write a
  // geopoint with points in every locale, beside measures written with the locale's commas.
  const places = { ',': [] as Example[], '.': [] as Example[] };
  for (const row of rows) {
    row.cells.forEach((cell, i) => {
      const column = columns[i] ?? `column ${i + 1}`;
      const numbers = placeNumbers(cell.value.trim());
      for (const text of numbers) {
        const example = { text, column };
        const separator = text.includes(',') ? ',' : '.';
        if (EITHER.test(text)) either[separator].push(example);
        else if (COMMA_DECIMAL.test(text)) (numbers.length > 1 ? places : plain)[','].push(example);
        else if (DOT_DECIMAL.test(text)) (numbers.length > 1 ? places : plain)['.'].push(example);
      }
    });
  }
  if (plain[','].length + plain['.'].length === 0 && places[','].length + places['.'].length > 0) {
    plain[','].push(...places[',']);
    plain['.'].push(...places['.']);
  }
  if (plain[','].length + plain['.'].length === 0) {
    // Such cells say nothing, so the delimiter does: a spreadsheet separates with ';' where the
    // decimal separator is a comma. Read so, a cell of the other mark's kind is refused as
    // ambiguous (parseNumber.ts), never taken a thousand times too small.
    const example = either[','][0] ?? either['.'][0];
    const separator = delimiter === ';' ? ',' : '.';
    return example ? { separator, example, undecided: true } : { separator: '.' };
  }
  if (plain[','].length > plain['.'].length) return { separator: ',', example: plain[','][0] };
  return { separator: '.', example: plain['.'][0] };
}

// A cell of a place's numbers, as a `position` column writes them: a geopoint "47.0707 15.4395 350 5",
// a geoshape's points joined by ";", a copied "48.2048, 16.3577" or "48,2048, 16,3577".
const PLACE_PARTS = /\s*;\s*|,?\s+/;
const PLACE_NUMBER = /^[+-]?\d+([.,]\d+)?$/;
const TWO_POINT_DECIMALS = /^([+-]?\d+\.\d+),([+-]?\d+\.\d+)$/;

/** The numbers of a cell: the cell itself, or each number of a place's numbers (whose decimals count as a column's do). */
function placeNumbers(text: string): string[] {
  const joined = TWO_POINT_DECIMALS.exec(text);
  if (joined) return [joined[1], joined[2]];
  const parts = text.split(PLACE_PARTS).filter((part) => part !== '');
  return parts.length >= 2 && parts.every((part) => PLACE_NUMBER.test(part)) ? parts : [text];
}

interface Example {
  text: string;
  column: string;
}
