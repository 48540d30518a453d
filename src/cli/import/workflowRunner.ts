// The import: every document through the core's import engine (streamImport), with or
// without media, so there is one journal and one rule for "already imported": the spot's journal
// under .spot-import/journal/ says this exact text was imported, and nothing is sent. The
// documents are a source the engine takes one at a time as it needs them (a few ahead of the
// requests), so 100,000 documents never mean 100,000 texts or outcomes held at once; each outcome
// is reported as soon as the engine settles it. --no-media is the engine's media: false, and
// --dry-run the engine's check (checkSpots): the same preparation, nothing sent.
import { checkSpots, runStopCause, streamImport, type ImportCheckOptions, type ImportRunOptions, type RunStop, type SpotOutcome } from '../../core';
import { topicRulesOf } from '../documents/documentRules';
import { documentInputs } from '../documents/documentInputs';
import { CliError, EXIT } from '../exit';
import { RunTally, type ImportJob, type ImportRunner } from './importRunner';
import { toOutcome } from './spotOutcome';

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
  const end = job.client ? await streamImport(source, workflowOptions(job), settle) : await checkSpots(source, checkOptions(job), settle);
  const stop = end.stop;
  if (stop?.kind === 'journal') throw new CliError(`${tally.done > 0 ? 'Nothing more was sent.' : 'Nothing was sent.'} ${stop.error.message}`, EXIT.usage);
  // The dry run's Ctrl-C, or an interrupted source: the rest was never taken.
  const stopped =
    (stop?.kind as Exclude<RunStop['kind'], 'journal'> | undefined) ?? (job.signals.stop.aborted && taken < job.files.length ? 'cancelled' : undefined);
  for (; taken < job.files.length; taken++)
    report({ file: job.display(job.files[taken]), status: 'notAttempted', ok: false, reason: runStopCause(stopped ?? 'cancelled'), findings: [] });
  return { stopped, stopError: stop?.error, remaining: tally.remaining };
};

/** The check of a dry run: the import's rules, media as the import would take them, nothing sent. */
function checkOptions(job: ImportJob): ImportCheckOptions {
  return {
    concurrency: job.concurrency,
    media: job.media.upload,
    ...(job.media.acceptedTypes ? { acceptedTypes: job.media.acceptedTypes } : {}),
    ...topicRulesOf(job.rules),
    describePath: job.display,
    signal: job.signals.stop,
  };
}

export function workflowOptions(job: ImportJob): ImportRunOptions {
  return {
    client: job.client!,
    // The built-in sandbox listens on another port every run: its journal is keyed by its data
    // folder instead (the job's target), so a second run finds what the first one recorded.
    journal: { accounts: job.journalAccounts, dir: job.journalDir, account: { serviceUrl: job.target.service, clientId: job.target.clientId } },
    concurrency: job.concurrency,
    finalState: job.media.keepInProgress ? 2 : 1,
    writeBack: job.media.writeBack ? undefined : false,
    media: job.media.upload,
    ...(job.media.acceptedTypes ? { acceptedTypes: job.media.acceptedTypes } : {}),
    ...topicRulesOf(job.rules),
    describePath: job.display,
    // The first Ctrl-C: nothing new is started, and an upload in flight finishes, so its outcome
    // is recorded. The second drops those uploads too: the next run settles them from the gallery.
    signal: job.signals.stop,
    abortSignal: job.signals.abort,
  };
}
