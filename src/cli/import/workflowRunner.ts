// The import: every document through the core's media workflow, with or without media, so there
// is one journal and one rule for "already imported": the spot's journal under
// .spot-import/journal/ says this exact text was imported (skipUnchanged), and nothing is sent.
// Documents are read and checked against the project's topics one at a time as the workflow asks
// for the next (streamMediaWorkflow: a few ahead of the requests), so 100,000 documents never mean
// 100,000 texts or outcomes held at once and the requests never wait for a batch to be read; each
// outcome is reported as soon as the workflow settles it. --no-media is the workflow's media:
// false: each document sent as it is, through the same spot journals.
import { AuthenticationError, JournalLockedError, MediaJournal, SourceIdOwners, isCancellation, parseSpotText, serviceUrlOf, streamMediaWorkflow, type MediaWorkflowOptions, type SpotInput } from '../../core';
import type { SpotJournal } from '../../core/media/journal';
import { checkBeforeImport, checkDocumentText, claimSourceId, readDocumentText } from '../documents/checkDocument';
import { CliError, EXIT } from '../exit';
import type { Finding, Outcome } from '../output/records';
import type { ImportJob, ImportRunEnd, ImportRunner } from './importRunner';
import { toOutcome } from './spotOutcome';

/** Texts up to this size are handed to the workflow (not read twice); larger ones it reads itself. */
const INLINE_TEXT = 64 * 1024;
/**
 * A source id no document can have (a control character): the journal opened for it holds the
 * account's run lock for the whole import. It is never written.
 */
const RUN_HOLD = '\u0000spot-import run';

export const importWithWorkflow: ImportRunner = async (job) => {
  let done = 0;
  let bytes = 0;
  let remaining = 0;
  let stopped: ImportRunEnd['stopped'];
  let stopError: ImportRunEnd['stopError'];
  const report = (outcome: Outcome) => {
    if (!outcome.ok) remaining++;
    done++;
    job.report(outcome);
    job.progress({ done, bytes });
  };
  let next = 0;
  if (!job.client) {
    const sourceIds = new SourceIdOwners();
    for (; next < job.files.length && !job.signals.stop.aborted; next++) {
      const path = job.files[next];
      const read = await readDocumentText(path);
      if ('error' in read) report({ file: job.display(path), status: 'failed', ok: false, reason: read.error, failure: 'unreadable', findings: [] });
      else {
        bytes += Buffer.byteLength(read.text);
        report(await dryRun(path, read.text, job, sourceIds));
      }
      // Reading is synchronous: give the event loop a turn now and then (Ctrl-C, the bar, stdout).
      if (next % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
    }
  } else {
    const options = workflowOptions(job);
    const hold = await holdJournal(job, options);
    const warnings = new Map<string, Finding[]>();
    // The documents, read and checked as the workflow takes them; refused ones reported here.
    async function* documents(): AsyncGenerator<SpotInput> {
      for (let read = 0; next < job.files.length && !job.signals.stop.aborted; read++) {
        const path = job.files[next++];
        // Reading is synchronous: give the event loop a turn now and then (Ctrl-C, the bar, stdout).
        if (read % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
        const file = job.display(path);
        const text = await readDocumentText(path);
        if ('error' in text) {
          report({ file, status: 'failed', ok: false, reason: text.error, failure: 'unreadable', findings: [] });
          continue;
        }
        bytes += Buffer.byteLength(text.text);
        const parsed = parseSpotText(text.text, { topics: job.rules.topics });
        const checked = await checkBeforeImport(path, text.text, job.rules, job.display, parsed);
        if (!checked.ok) {
          report({ file, status: 'failed', ok: false, reason: checked.reason, failure: 'document', findings: checked.findings });
          continue;
        }
        if (checked.findings.length > 0) warnings.set(path, checked.findings);
        // Taken out as used: a run over 100,000 documents does not keep the walk's list to the end.
        const mediaFolder = job.withoutMediaFolder?.delete(path) ? { mediaFolder: false as const } : {};
        yield { path, label: file, ...mediaFolder, ...(text.text.length <= INLINE_TEXT ? { text: text.text, parsed } : {}) };
      }
    }
    let imported = 0;
    try {
      const end = await streamMediaWorkflow(documents(), options, {
        total: job.files.length,
        journal: hold.journal,
        settled: (_position, spot) => {
          if (spot.error instanceof JournalLockedError) return;
          if (spot.status === 'done') imported++;
          report(toOutcome(spot, warnings.get(spot.path) ?? [], job.display));
          warnings.delete(spot.path);
        },
      });
      if (end.stoppedBy instanceof AuthenticationError) {
        stopped = 'credentialsRejected';
        stopError = end.stoppedBy;
      } else if (end.stoppedBy instanceof JournalLockedError) {
        throw new CliError(`${imported > 0 ? 'Nothing more was sent.' : 'Nothing was sent.'} ${end.stoppedBy.message}`, EXIT.usage);
      } else if (end.stoppedBy && isCancellation(end.stoppedBy)) {
        stopped = 'interrupted';
      }
    } finally {
      await hold.release();
    }
  }
  if (!stopped && job.signals.stop.aborted && next < job.files.length) stopped = 'interrupted';
  const why = stopped === 'credentialsRejected' ? 'the run stopped because the credentials were rejected' : 'the run was interrupted first';
  for (; next < job.files.length; next++) report({ file: job.display(job.files[next]), status: 'notAttempted', ok: false, reason: why, findings: [] });
  return { stopped, stopError, remaining };
};

function workflowOptions(job: ImportJob): MediaWorkflowOptions {
  const client = job.client!;
  // The built-in sandbox listens on another port every run: its journal is keyed by its data
  // folder instead (the job's target), so a second run finds what the first one recorded.
  const keyed = job.target.service.startsWith('sandbox:')
    ? {
        importSpot: client.importSpot.bind(client),
        getGallery: client.getGallery.bind(client),
        uploadMedia: client.uploadMedia.bind(client),
        setMediaOrder: client.setMediaOrder.bind(client),
        apiRoot: job.target.service,
      }
    : client;
  return {
    client: keyed,
    clientId: job.target.clientId,
    journalDir: job.journalDir,
    concurrency: job.concurrency,
    finalState: job.media.keepInProgress ? 2 : 1,
    writeBack: job.media.writeBack ? undefined : false,
    media: job.media.upload,
    ...(job.media.acceptedTypes ? { acceptedTypes: job.media.acceptedTypes } : {}),
    topics: job.rules.topics,
    describePath: job.display,
    // The first Ctrl-C: nothing new is started, and an upload in flight finishes, so its outcome
    // is recorded. The second drops those uploads too: the next run settles them from the gallery.
    signal: job.signals.stop,
    abortSignal: job.signals.abort,
  };
}

/**
 * Opens the account's journal for the whole run: another process using it is found before
 * anything is sent (exit 2), and the lock is not given up between batches.
 */
async function holdJournal(job: ImportJob, options: MediaWorkflowOptions): Promise<{ journal: MediaJournal; release(): Promise<void> }> {
  const journal = new MediaJournal(job.journalDir, { serviceUrl: serviceUrlOf(options.client.apiRoot), clientId: options.clientId });
  let held: SpotJournal;
  try {
    held = await journal.open(RUN_HOLD, job.journalDir);
  } catch (error) {
    await journal.close().catch(() => undefined);
    if (error instanceof JournalLockedError) throw new CliError(`Nothing was sent. ${error.message}`, EXIT.usage);
    throw new CliError(`The journal in ${job.journalDir} cannot be used: ${(error as Error).message}`, EXIT.usage);
  }
  return {
    journal,
    release: async () => {
      held.release();
      await journal.close();
    },
  };
}

async function dryRun(path: string, text: string, job: ImportJob, sourceIds: SourceIdOwners): Promise<Outcome> {
  const file = job.display(path);
  // The real run's rules: --no-media leaves the media folder alone there, so it does here; and a
  // source_id an earlier document has is refused, as the workflow refuses it.
  const checked = claimSourceId(await checkDocumentText(path, text, job.rules, job.display, job.media.upload), path, sourceIds, job.display);
  if (!checked.ok) return { file, status: 'failed', ok: false, reason: checked.reason, failure: 'document', findings: checked.findings };
  return { file, status: 'wouldImport', ok: true, findings: checked.findings, spot: { sourceId: checked.sourceId, pendingGalleries: [] } };
}
