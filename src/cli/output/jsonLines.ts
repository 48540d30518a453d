// --format json: one JSON object per line, with the stable field names docs/cli-json.md
// documents. Absent values are left out rather than written as null.
import type { LineWriter } from './lineWriter';
import type { CommandName, Outcome, RunSummary } from './records';
import type { Reporter } from './reporter';

export function jsonLinesReporter(out: LineWriter, command: CommandName): Reporter {
  return {
    outcome(outcome) {
      out.line(JSON.stringify(outcomeRecord(command, outcome)));
    },
    finish(summary) {
      out.line(JSON.stringify(summaryRecord(summary)));
    },
  };
}

function outcomeRecord(command: CommandName, outcome: Outcome): Record<string, unknown> {
  const base = {
    file: outcome.file,
    ...(outcome.row ? { row: outcome.row.row, line: outcome.row.line } : {}),
    status: outcome.status,
    ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
  };
  const problems = outcome.findings.length > 0 ? { problems: outcome.findings } : {};
  if (outcome.kind) return { type: outcome.kind, ...base, problems: outcome.findings };
  switch (command) {
    case 'validate':
      return { type: 'document', ...base, problems: outcome.findings };
    case 'import': {
      const spot = outcome.spot;
      return {
        type: 'spot',
        ...base,
        ...(spot ? { sourceId: spot.sourceId } : {}),
        ...(spot?.spotId !== undefined ? { spotId: spot.spotId } : {}),
        ...(spot?.change ? { change: spot.change } : {}),
        ...(spot?.state !== undefined ? { state: spot.state } : {}),
        ...(spot && spot.spotId !== undefined ? { pendingGalleries: spot.pendingGalleries } : {}),
        ...(spot?.galleries ? { galleries: spot.galleries } : {}),
        ...(spot?.writeBack ? { writeBack: spot.writeBack } : {}),
        ...(spot?.remaining ? { remaining: spot.remaining } : {}),
        ...problems,
      };
    }
    case 'upload':
      return { type: 'upload', ...base, ...outcome.upload };
  }
}

function summaryRecord(summary: RunSummary): Record<string, unknown> {
  return {
    type: 'summary',
    command: summary.command,
    total: summary.total,
    counts: summary.counts,
    ...(summary.stopped ? { stopped: summary.stopped } : {}),
    message: summary.message,
    exitCode: summary.exitCode,
    durationMs: summary.durationMs,
  };
}
