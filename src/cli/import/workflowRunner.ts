// The import: every document through the core's import engine (streamImport), with or
// without media, so there is one journal and one rule for "already imported": the spot's journal
// under .spot-import/journal/ says this exact text was imported, and nothing is sent. The
// documents are a source the engine takes one at a time as it needs them (a few ahead of the
// requests), so 100,000 documents never mean 100,000 texts or outcomes held at once; each outcome
// is reported as soon as the engine settles it. --no-media is the engine's media: false, and
// --dry-run the engine's check (checkSpots): the same preparation, nothing sent.
import { checkSpots, runStopCause, streamImport, type RunStop, type SpotOutcome } from '../../core';
import { documentInputs } from '../documents/documentInputs';
import { CliError, EXIT } from '../exit';
import { RunTally, type ImportRunner } from './importRunner';
import { toOutcome } from './spotOutcome';
import { checkOptions, importOptions } from './runOptions';

export const importWithWorkflow: ImportRunner = async (job) => {
  const tally = new RunTally(job);
  const { report } = tally;
  let taken = 0;
  const source = documentInputs(job.files, {
    display: job.display,
    stop: job.signals.stop,
    withoutMediaFolder: job.withoutMediaFolder,
    onRead: (read) => (tally.bytes += read),
    onTaken: () => taken++,
  });
  const settle = (_position: number, spot: SpotOutcome) => report(toOutcome(spot, job.display));
  // The dry run is the engine's check: the same preparation as the import, nothing sent.
  const end = job.client ? await streamImport(source, importOptions(job), settle) : await checkSpots(source, checkOptions(job), settle);
  const stop = end.stop;
  if (stop?.kind === 'journal') throw new CliError(`${tally.done > 0 ? 'Nothing more was sent.' : 'Nothing was sent.'} ${stop.error.message}`, EXIT.usage);
  // The dry run's Ctrl-C, or an interrupted source: the rest was never taken.
  const stopped =
    (stop?.kind as Exclude<RunStop['kind'], 'journal'> | undefined) ?? (job.signals.stop.aborted && taken < job.files.length ? 'cancelled' : undefined);
  for (; taken < job.files.length; taken++)
    report({ file: job.display(job.files[taken]), status: 'notAttempted', ok: false, reason: runStopCause(stopped ?? 'cancelled'), findings: [] });
  return { stopped, stopError: stop?.error, remaining: tally.remaining };
};
