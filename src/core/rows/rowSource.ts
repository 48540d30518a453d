// Rows of a table as a source of the import engine: each row the spot document it stands for,
// made as the engine takes it (a 100,000-row file is never held whole), with its photos and the
// problems of its cells; the engine checks, imports, uploads and journals it as any spot (keyed by
// its source_id, so a second run sends nothing that was done), and every problem comes back placed
// at its cell (placeRowProblem).
import { basename } from 'node:path';
import type { SpotInput, SpotSource } from '../import/types';
import { fromPointer, toPointer } from '../documents/problems';
import { l10n } from '../text/l10n';
import type { ResolvedMapping } from './mapping/resolveMapping';
import type { CellPosition, SourceRow, SourceTable } from './read';
import { cellNamer } from './read/cellReference';
import { rowToSpot, type RowProblem, type RowSpot } from './rowToSpot';

/** What a row's outcome carries back (SpotOutcome.origin): where it is, and where its parts came from. */
export interface RowOrigin {
  kind: 'row';
  /** The table. */
  source: string;
  row: number;
  line: number;
  cells: Map<string, CellPosition>;
  files: Map<string, CellPosition>;
  /** How messages name the row's cells when not by line and column (a workbook's Sheet1!C12, a shapefile's feature). */
  nameCell?: (at: CellPosition) => string;
}

/** A table's row that could not be read (a wrong number of cells): reported by the source's caller. */
export interface UnreadableRow {
  line: number;
  column: number;
  row?: number;
  problem: string;
}

export interface RowSourceOptions {
  /** false: a run without media (--no-media; see RowToSpotOptions). */
  media?: boolean;
  /** Each row that could not be read, as it is met (it never reaches the engine). */
  onUnreadable?: (row: UnreadableRow) => void;
  signal?: AbortSignal;
}

export function rowSource(table: SourceTable, mapping: ResolvedMapping, options: RowSourceOptions = {}): SpotSource {
  return {
    spots: async function* () {
      const labels = rowLabels(table.path);
      const nameCell = cellNamer(table.format);
      for await (const row of table.rows(options.signal)) {
        if ('problem' in row) {
          options.onUnreadable?.(row);
          continue;
        }
        yield rowInput(table.path, await rowToSpot(row as SourceRow, mapping, { media: options.media }), labels, nameCell);
      }
    },
  };
}

/** The engine's input for a row: its document, photos, problems, and where it came from. */
export function rowInput(
  source: string,
  spot: RowSpot,
  labels: (row: number, line: number) => string = (row, line) => rowLabel(source, row, line),
  nameCell?: (at: CellPosition) => string,
): SpotInput {
  const origin: RowOrigin = {
    kind: 'row',
    source,
    row: spot.row,
    line: spot.line,
    cells: spot.cells,
    files: spot.files,
    ...(nameCell !== undefined ? { nameCell } : {}),
  };
  return {
    // Not a file of its own: what the journal notes of it and how messages name it.
    path: rowPath(source, spot.row),
    label: labels(spot.row, spot.line),
    text: spot.text,
    media: spot.media ?? false,
    problems: spot.problems,
    origin,
  };
}

/** The path a row's input has: the table's, with the row as its fragment. */
export function rowPath(source: string, row: number): string {
  return `${source}#row=${row}`;
}

/** The row a rowPath names in `source`, or undefined for any other path. */
export function rowOfPath(source: string, path: string): number | undefined {
  const prefix = `${source}#row=`;
  return path.startsWith(prefix) && /^[1-9]\d*$/.test(path.slice(prefix.length)) ? Number(path.slice(prefix.length)) : undefined;
}

/** "trees.csv row 12 (line 14)". */
export function rowLabel(source: string, row: number | string, line: number | string): string {
  return l10n.t('{0} row {1} (line {2})', basename(source), row, line);
}

/**
 * rowLabel for the rows of one table in one run, its words made once rather than for each row. A
 * file name cannot hold the NUL characters the places are marked with.
 */
export function rowLabels(source: string): (row: number, line: number) => string {
  const words = rowLabel(source, ROW_PLACE, LINE_PLACE);
  return (row, line) => words.replaceAll(ROW_PLACE, String(row)).replaceAll(LINE_PLACE, String(line));
}

const ROW_PLACE = '\u0000row\u0000';
const LINE_PLACE = '\u0000line\u0000';

export function isRowOrigin(origin: unknown): origin is RowOrigin {
  return typeof origin === 'object' && origin !== null && (origin as RowOrigin).kind === 'row';
}

/**
 * Where in the table a problem of a row's spot is: the cell it was found at, the cell that named
 * its photo, the cell its attribute came from (or, for a member the document lacks, would have
 * come from; or its nearest enclosing one), else the row's start.
 */
export function placeRowProblem(
  origin: Pick<RowOrigin, 'cells' | 'files' | 'line'>,
  problem: { pointer?: string; absent?: string; file?: string; at?: CellPosition },
): CellPosition {
  if ((problem as RowProblem).at) return (problem as RowProblem).at;
  if (problem.file !== undefined) {
    const named = origin.files.get(problem.file);
    if (named) return named;
  }
  // A member the document lacks (a required field) is placed at the cell it would have come from.
  const path = fromPointer((problem.absent !== undefined && origin.cells.has(problem.absent) ? problem.absent : problem.pointer) ?? '');
  for (let depth = path.length; depth >= 3; depth--) {
    const cell = origin.cells.get(toPointer(path.slice(0, depth)));
    if (cell) return cell;
  }
  return { line: origin.line, column: 1 };
}
