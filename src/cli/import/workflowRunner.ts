// The import: every document through the core's import engine (streamImport), with or
// without media, so there is one journal and one rule for "already imported": the spot's journal
// under .spot-import/journal/ says this exact text was imported, and nothing is sent. The
// documents are a source the engine takes one at a time as it needs them (a few ahead of the
// requests), so 100,000 documents never mean 100,000 texts or outcomes held at once; each outcome
// is reported as soon as the engine settles it. --no-media is the engine's media: false.
import { readSpotDocumentSync, SourceIdOwners, streamImport, type ImportRunOptions, type RunStop, type SpotInput, type SpotSource } from '../../core';
import { checkDocumentText, claimSourceId, readDocumentText, topicRulesOf } from '../documents/checkDocument';
import { CliError, EXIT } from '../exit';
import type { Outcome } from '../output/records';
import type { ImportJob, ImportRunner } from './importRunner';
import { toOutcome } from './spotOutcome';
import { runStopCause } from '../../core';

export const importWithWorkflow: ImportRunner = async (job) => {
  let done = 0;
  let bytes = 0;
  let remaining = 0;
  const report = (outcome: Outcome) => {
    if (!outcome.ok) remaining++;
    done++;
    job.report(outcome);
    job.progress({ done, bytes });
  };
  let taken = 0;
  let stop: RunStop | undefined;
  if (!job.client) {
    const sourceIds = new SourceIdOwners();
    for (; taken < job.files.length && !job.signals.stop.aborted; taken++) {
      const path = job.files[taken];
      const read = await readDocumentText(path);
      if ('error' in read) report({ file: job.display(path), status: 'failed', ok: false, reason: read.error, failure: 'unreadable', findings: [] });
      else {
        bytes += Buffer.byteLength(read.text);
        report(await dryRun(path, read.text, job, sourceIds));
      }
      // Reading is synchronous: give the event loop a turn now and then (Ctrl-C, the bar, stdout).
      if (taken % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
    }
  } else {
    // Synchronous: for a file of a few hundred bytes, a stat and a read straight from this thread
    // cost a fraction of the trips through libuv's thread pool (see readDocumentText).
    const read = (path: string) => {
      const text = readSpotDocumentSync(path);
      bytes += Buffer.byteLength(text);
      return text;
    };
    const source: SpotSource = { total: job.files.length, spots: () => documentInputs(job, read, () => taken++) };
    const end = await streamImport(source, workflowOptions(job), (_position, spot) => report(toOutcome(spot, job.display)));
    stop = end.stop;
    if (stop?.kind === 'journal') throw new CliError(`${done > 0 ? 'Nothing more was sent.' : 'Nothing was sent.'} ${stop.error.message}`, EXIT.usage);
  }
  // The dry run's Ctrl-C, or an interrupted source: the rest was never taken.
  const stopped =
    (stop?.kind as Exclude<RunStop['kind'], 'journal'> | undefined) ?? (job.signals.stop.aborted && taken < job.files.length ? 'cancelled' : undefined);
  for (; taken < job.files.length; taken++)
    report({ file: job.display(job.files[taken]), status: 'notAttempted', ok: false, reason: runStopCause(stopped ?? 'cancelled'), findings: [] });
  return { stopped, stopError: stop?.error, remaining };
};

/**
 * The job's documents as the engine takes them, one at a time: each read when its turn comes
 * (`read`), none after the first Ctrl-C, a document the folder walk saw without a media folder
 * not looked at again (media: false). An iterator of its own rather than a generator: every 64th
 * document waits for the event loop's next turn (Ctrl-C, the progress bar, stdout), which a run
 * of documents that need no request (all imported before) would otherwise never give it.
 */
function documentInputs(job: ImportJob, read: (path: string) => string, take: () => number): AsyncIterable<SpotInput> {
  const { files, withoutMediaFolder } = job;
  let next = 0;
  const iterator: AsyncIterator<SpotInput> = {
    next() {
      if (next >= files.length || job.signals.stop.aborted) return Promise.resolve({ done: true, value: undefined });
      const index = next++;
      const path = files[index];
      const input: SpotInput = { path, label: job.display(path), read: () => read(path) };
      if (withoutMediaFolder?.[index]) input.media = false;
      const result = { done: false, value: input };
      if (take() % 64 === 63) return new Promise((resolve) => setImmediate(() => resolve(result)));
      return Promise.resolve(result);
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
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

async function dryRun(path: string, text: string, job: ImportJob, sourceIds: SourceIdOwners): Promise<Outcome> {
  const file = job.display(path);
  // The real run's rules: --no-media leaves the media folder alone there, so it does here; and a
  // source_id an earlier document has is refused, as the engine refuses it.
  const checked = claimSourceId(await checkDocumentText(path, text, job.rules, job.display, job.media.upload), path, sourceIds, job.display);
  if (!checked.ok) return { file, status: 'failed', ok: false, reason: checked.reason, failure: 'document', findings: checked.findings };
  return { file, status: 'wouldImport', ok: true, findings: checked.findings, spot: { sourceId: checked.sourceId, pendingGalleries: [] } };
}
