// Every row of a table checked as the import will check it, without sending anything: the cells
// (rowToSpot), the document each row stands for with the import's rules (checkSpotForImport: the
// base rules, the topic's, the account's topic), its photos (present, not empty, a type accepted;
// read only by the import, which hashes what it sends), and a source_id an earlier row has. What
// `spot-import validate` prints and the editor shows on the cells.
import type { AccountTopic } from '../import/importRules';
import { checkSpotForImport } from '../import/checkForImport';
import { noMediaLayout } from '../media/mediaLayout';
import { repeatedSourceIdReason, SourceIdOwners } from '../documents/sourceIds';
import { ruleOf, SPOT_RULES } from '../documents/problems';
import { l10n } from '../text/l10n';
import type { TopicCatalog } from '../topics/topicSchema';
import type { ResolvedMapping } from './mapping/resolveMapping';
import type { CellPosition, SourceRow, SourceTable } from './read';
import { placeRowProblem, rowInput, rowLabel } from './rowSource';
import { rowToSpot, type RowSpot } from './rowToSpot';
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
}

export async function* checkRows(table: SourceTable, mapping: ResolvedMapping, rules: RowRules, signal?: AbortSignal): AsyncIterable<CheckedRow> {
  const owners = new SourceIdOwners();
  for await (const read of table.rows(signal)) {
    if ('problem' in read) {
      yield {
        row: read.row,
        line: read.line,
        label: l10n.t('{0} line {1}', table.path, read.line),
        findings: [{ line: read.line, column: read.column, message: read.problem, severity: 'error', rule: 'row.unreadable', pointer: '' }],
        ok: false,
      };
      continue;
    }
    yield await checkRow(table.path, read as SourceRow, mapping, rules, owners);
  }
}

/** One row (the editor's hover and preview check one row at a time, with no run's source ids). */
export async function checkRow(source: string, row: SourceRow, mapping: ResolvedMapping, rules: RowRules, owners?: SourceIdOwners): Promise<CheckedRow> {
  const spot = await rowToSpot(row, mapping, { media: rules.media });
  const input = rowInput(source, spot);
  const check = await checkSpotForImport(
    input.path,
    spot.text,
    withMembers(rules, { layout: spot.media ?? noMediaLayout(input.path), hashFiles: false }),
    spot.problems,
  );
  const origin = { cells: spot.cells, files: spot.files, line: spot.line };
  const findings: RowFinding[] = check.problems.map((problem) =>
    withMembers(positionOf(placeRowProblem(origin, problem)), {
      message: problem.message,
      severity: problem.severity,
      rule: ruleOf(problem),
      pointer: problem.pointer,
      ...(problem.file ? { file: problem.file } : {}),
    }),
  );
  const earlier = spot.sourceId !== undefined ? owners?.claim(spot.sourceId, rowLabel(source, spot.row, spot.line)) : undefined;
  if (earlier !== undefined && spot.sourceId !== undefined) {
    const at = spot.cells.get('/data/attributes/source_id') ?? { line: spot.line, column: 1 };
    findings.unshift(
      withMembers(at, {
        message: repeatedSourceIdReason(spot.sourceId, earlier),
        severity: 'error' as const,
        rule: SPOT_RULES.repeatedSourceId,
        pointer: '/data/attributes/source_id',
      }),
    );
  }
  return {
    row: spot.row,
    line: spot.line,
    label: input.label!,
    sourceId: spot.sourceId,
    findings,
    ok: !findings.some((finding) => finding.severity === 'error'),
    spot,
  };
}

function positionOf(at: CellPosition): CellPosition {
  return { line: at.line, column: at.column };
}
