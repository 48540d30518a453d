// Every row of a table checked by the import engine without sending anything (checkSpots): the
// cells (rowToSpot), the document each row stands for with the import's rules (the base rules, the
// topic's, the account's topic), its photos (present, not empty, a type accepted; read only by
// the import, which hashes what it sends), and a source_id an earlier row of the table has (one an
// earlier table of the same check has is a warning: tablesRun.ts). What `spot-import validate` and
// the dry run print and the editor shows on the cells.
import type { AccountTopic } from '../import/importRules';
import { checkSpots } from '../import/runImport';
import type { SpotOutcome, SpotSource } from '../import/types';
import { ruleOf } from '../documents/problems';
import { SPOT_RULES } from '../api/spotRules';
import { l10n } from '../text/l10n';
import type { TopicCatalog } from '../topics/topicSchema';
import type { ResolvedMapping } from './mapping/resolveMapping';
import type { CellPosition, SourceRow, SourceTable } from './read';
import { cellNamer } from './read/cellReference';
import { placeRowProblem, rowInput } from './rowSource';
import { rowToSpot, type RowSpot } from './rowToSpot';
import { TableRows } from './tableRows';
import type { TablesRun } from './tablesRun';
import { withMembers } from '../objects/withMembers';

export interface RowFinding {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
  rule: string;
  pointer: string;
  /** A photo the problem is about. */
  file?: string;
}

export interface CheckedRow {
  /** 1-based data row; undefined for a line that is not a row (it could not be read). */
  row?: number;
  line: number;
  label: string;
  sourceId?: string;
  findings: RowFinding[];
  /** No error: the row would be imported. */
  ok: boolean;
  /** The spot the row stands for (Preview Spots shows its text). */
  spot?: RowSpot;
}

export interface RowRules {
  topics?: TopicCatalog;
  topic?: AccountTopic;
  acceptedTypes?: readonly string[];
  /** false: checked as a run without media would send them (--dry-run --no-media; RowToSpotOptions). */
  media?: boolean;
  /** The check this table is one of (validate of several tables): a source id an earlier table gave is said. Default: the table alone. */
  run?: TablesRun;
}

/** Checked rows waiting to be handed out in the table's order: the engine settles them out of order. */
const ROWS_AHEAD_AT_MOST = 256;

/**
 * Every row checked by the import engine's own check (checkSpots: the preparation an import makes,
 * no journal, no request), handed out in the table's order with its findings at its cells, so
 * validate, the dry run, the editor and the import cannot disagree on which rows are valid. The
 * table is read no faster than the rows are taken.
 */
export async function* checkRows(table: SourceTable, mapping: ResolvedMapping, rules: RowRules, signal?: AbortSignal): AsyncIterable<CheckedRow> {
  const { run, ...engineRules } = rules;
  const ordered = new OrderedRows();
  // A taker that stops early (breaks out of its loop) stops the reading and the engine with it.
  const taken = new AbortController();
  const stop = signal ? AbortSignal.any([signal, taken.signal]) : taken.signal;
  const rows = new TableRows(table.path);
  const tableOfRun = run?.begin(table.path);
  const nameCell = cellNamer(table.format);
  /** Each spot the engine was given, by its position: the slot it fills, and what the row is made of. */
  const given = new Map<number, { slot: number; spot: RowSpot }>();
  let positions = 0;
  const source: SpotSource = {
    spots: async function* () {
      for await (const read of table.rows(stop)) {
        await ordered.room();
        if ('problem' in read) {
          ordered.fill(ordered.reserve(), unreadableRow(table.path, read));
          continue;
        }
        const spot = await rowToSpot(read as SourceRow, mapping, { media: rules.media });
        given.set(positions++, { slot: ordered.reserve(), spot });
        rows.startsOn(spot.row, spot.line);
        yield rowInput(table.path, spot, rows.labels, nameCell);
      }
    },
  };
  // An earlier row the engine names (the owner of a repeated source_id) is named by its table, row and line.
  const describePath = (path: string) => rows.describe(path) ?? path;
  const check = checkSpots(source, withMembers(engineRules, { describePath, signal: stop }), (position, outcome) => {
    const { slot, spot } = given.get(position)!;
    given.delete(position);
    ordered.fill(slot, checkedRowOf(spot, outcome));
  });
  check.then(
    () => ordered.end(),
    (error: unknown) => ordered.end(error),
  );
  try {
    for await (const checked of ordered.inOrder()) {
      // Only a valid row gives its source_id a spot for a later table's row to update.
      if (run && tableOfRun !== undefined && checked.ok && checked.sourceId !== undefined && checked.row !== undefined) {
        const warning = run.claim(tableOfRun, checked.sourceId, checked.row, checked.line);
        if (warning) checked.findings.push(sourceIdWarning(checked, warning));
      }
      yield checked;
    }
  } finally {
    taken.abort();
    ordered.close();
    await check.catch(() => undefined);
  }
}

/** One row on its own (the editor's hover, preview and map), checked by the same engine check, with no run's source ids. */
export async function checkRow(source: string, row: SourceRow, mapping: ResolvedMapping, rules: RowRules): Promise<CheckedRow> {
  const spot = await rowToSpot(row, mapping, { media: rules.media });
  let checked: CheckedRow | undefined;
  await checkSpots([rowInput(source, spot)], withMembers(rules, { concurrency: 1 }), (_position, outcome) => (checked = checkedRowOf(spot, outcome)));
  return checked!;
}

/** The engine's outcome of a row's spot as a checked row: each problem at its cell. */
function checkedRowOf(spot: RowSpot, outcome: SpotOutcome): CheckedRow {
  const origin = { cells: spot.cells, files: spot.files, line: spot.line };
  const findings: RowFinding[] = outcome.problems.map((problem) =>
    withMembers(positionOf(placeRowProblem(origin, problem)), {
      message: problem.message,
      severity: problem.severity,
      rule: ruleOf(problem),
      pointer: problem.pointer,
      ...(problem.file ? { file: problem.file } : {}),
    }),
  );
  // A row the engine could not take at all (an unexpected failure) has its reason and no problem.
  if (outcome.status !== 'checked' && !findings.some((finding) => finding.severity === 'error'))
    findings.push({
      line: spot.line,
      column: 1,
      message: outcome.reason ?? l10n.t('The row could not be checked.'),
      severity: 'error',
      rule: 'row.unchecked',
      pointer: '',
    });
  return { row: spot.row, line: spot.line, label: outcome.label, sourceId: spot.sourceId, findings, ok: outcome.status === 'checked', spot };
}

/** The warning of a source_id an earlier table gave, at the row's source_id cell. */
function sourceIdWarning(checked: CheckedRow, message: string): RowFinding {
  const at = checked.spot?.cells.get(SOURCE_ID_POINTER) ?? { line: checked.line, column: 1 };
  return { line: at.line, column: at.column, message, severity: 'warning', rule: SPOT_RULES.repeatedSourceId, pointer: SOURCE_ID_POINTER };
}

const SOURCE_ID_POINTER = '/data/attributes/source_id';

function unreadableRow(source: string, read: { row?: number; line: number; column: number; problem: string }): CheckedRow {
  return {
    row: read.row,
    line: read.line,
    label: l10n.t('{0} line {1}', source, read.line),
    findings: [{ line: read.line, column: read.column, message: read.problem, severity: 'error', rule: 'row.unreadable', pointer: '' }],
    ok: false,
  };
}

function positionOf(at: CellPosition): CellPosition {
  return { line: at.line, column: at.column };
}

/**
 * Slots in the table's order, filled in any order, handed out in order as they fill. The reader
 * waits (room) while too many wait to be handed out, so a slow taker holds the table back.
 */
class OrderedRows {
  private readonly filled = new Map<number, CheckedRow>();
  private reserved = 0;
  private next = 0;
  private ended: { error?: unknown } | undefined;
  private wake: (() => void) | undefined;
  private roomWaiter: (() => void) | undefined;
  private closed = false;

  reserve(): number {
    return this.reserved++;
  }

  fill(slot: number, row: CheckedRow): void {
    this.filled.set(slot, row);
    if (slot === this.next) this.poke();
  }

  end(error?: unknown): void {
    this.ended = error === undefined ? {} : { error };
    this.poke();
  }

  /** No taker any more: the reader is never held back again. */
  close(): void {
    this.closed = true;
    const waiting = this.roomWaiter;
    this.roomWaiter = undefined;
    waiting?.();
  }

  room(): Promise<void> {
    if (this.closed || this.reserved - this.next < ROWS_AHEAD_AT_MOST) return Promise.resolve();
    return new Promise((resolve) => (this.roomWaiter = resolve));
  }

  async *inOrder(): AsyncGenerator<CheckedRow> {
    for (;;) {
      const row = this.filled.get(this.next);
      if (row !== undefined) {
        this.filled.delete(this.next++);
        const waiting = this.roomWaiter;
        this.roomWaiter = undefined;
        waiting?.();
        yield row;
        continue;
      }
      // The run is over: a slot never filled (the run was stopped) ends the rows here.
      if (this.ended) {
        if (this.ended.error !== undefined) throw this.ended.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
