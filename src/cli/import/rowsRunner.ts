// `spot-import import trees.csv`: the rows of a table through the import engine, each the spot it
// stands for (rowSource), with the import's every flag: --dry-run checks them all and sends
// nothing, the journal makes a second run send nothing that was done (a row is its source_id),
// and Ctrl-C stops as it does for documents. A row's outcome names the table, its row and line,
// and each problem its cell. Rows are never written back: the table stays as it is.
import { streamImport, type RunStop, type SpotSource } from '../../core';
import { checkRows, isRowOrigin, cellNamer, rowSource, TableRows } from '../../core/rows';
import { CliError, EXIT } from '../exit';
import { rowFindings, rowPlace, rowReason } from '../rows/rowFindings';
import { RunTally, type ImportRunner } from './importRunner';
import { toOutcome } from './spotOutcome';
import { runStopCause } from '../../core';
import { checkOptions, importOptions, photoFetcher } from './runOptions';

export const importRows: ImportRunner = async (job) => {
  const { table, mapping } = job.rows!;
  const file = job.display(table.path);
  const tally = new RunTally(job);
  const { report } = tally;
  const nameCell = cellNamer(table.format);
  if (!job.client) {
    for await (const checked of checkRows(table, mapping, checkOptions(job), job.signals.stop)) {
      const findings = rowFindings(
        checked.findings.map((finding) => ({ ...finding, at: finding })),
        job.display,
        nameCell,
      );
      const row = checked.row !== undefined ? { row: rowPlace({ row: checked.row, line: checked.line }, nameCell) } : {};
      if (checked.ok) report({ file, ...row, status: 'wouldImport', ok: true, findings, spot: { sourceId: checked.sourceId!, pendingGalleries: [] } });
      else report({ file, ...row, status: 'failed', ok: false, reason: rowReason(findings), failure: 'document', findings });
    }
    return { stopped: job.signals.stop.aborted ? 'cancelled' : undefined, remaining: tally.remaining };
  }
  const rows = rowSource(table, mapping, {
    media: job.media.upload,
    signal: job.signals.stop,
    onUnreadable: (row) =>
      report({
        file,
        ...(row.row !== undefined ? { row: rowPlace({ row: row.row, line: row.line }, nameCell) } : {}),
        status: 'failed',
        ok: false,
        reason: row.problem,
        failure: 'document',
        findings: rowFindings([{ at: row, message: row.problem, severity: 'error', rule: 'row.unreadable', pointer: '' }], job.display, nameCell),
      }),
  });
  // The line each row starts on (a number each): an earlier row the engine names (the owner of a
  // repeated source_id) is named as validate names it, "trees.csv row 2 (line 4)", rather than by
  // the path its input has.
  const lines = new TableRows(table.path);
  const source: SpotSource = {
    spots: async function* () {
      for await (const input of rows.spots()) {
        if (isRowOrigin(input.origin)) lines.startsOn(input.origin.row, input.origin.line);
        yield input;
      }
    },
  };
  const describePath = (path: string) => lines.describe(path) ?? job.display(path);
  // The table is never written: the journal remembers the gallery ids and states.
  // Every row's outcome names the table: its display name is worked out once (path.relative), not once a row.
  const display = (path: string) => (path === table.path ? file : job.display(path));
  const fetcher = photoFetcher(
    { journalDir: job.journalDir, refresh: job.media.refreshDownloads, acceptedTypes: job.media.acceptedTypes, photoLogins: job.media.photoLogins },
    mapping,
  );
  const fetchPhoto = (url: string) => fetcher.fetch(url, job.signals.abort);
  const end = await streamImport(source, { ...importOptions(job), writeBack: false, describePath, fetchPhoto }, (_position, spot) =>
    report(toOutcome(spot, display, nameCell)),
  );
  const stop: RunStop | undefined = end.stop;
  if (stop?.kind === 'journal') throw new CliError(`${tally.done > 0 ? 'Nothing more was sent.' : 'Nothing was sent.'} ${stop.error.message}`, EXIT.usage);
  if (stop) job.note(`${file}: the rows after the last one reported were not attempted: ${runStopCause(stop.kind)}.`);
  return { stopped: stop?.kind as Exclude<RunStop['kind'], 'journal'> | undefined, stopError: stop?.error, remaining: tally.remaining };
};
