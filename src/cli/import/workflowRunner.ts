// The import: every document through the core's media workflow (runMediaWorkflow), with or
// without media, so there is one journal and one rule for "already imported": the spot's journal
// under .spot-import/journal/ says this exact text was imported (skipUnchanged), and nothing is
// sent. Documents are read, checked against the project's topics and handed to the workflow in
// batches, so 100,000 documents never mean 100,000 texts or outcomes held at once; each outcome
// is reported as soon as the workflow settles it. --no-media is the workflow's media: false: each
// document sent as it is, through the same spot journals.
import { AuthenticationError, JournalLockedError, MediaJournal, isCancellation, runMediaWorkflow, serviceUrlOf, type MediaWorkflowOptions, type SpotInput } from '../../core';
import type { SpotJournal } from '../../core/media/journal';
import { checkBeforeImport, checkDocumentText, readDocumentText } from '../documents/checkDocument';
import { CliError, EXIT } from '../exit';
import type { Finding, Outcome } from '../output/records';
import type { ImportJob, ImportRunEnd, ImportRunner } from './importRunner';
import { toOutcome } from './spotOutcome';

/** Documents handed to the workflow at once: its outcomes (and small texts) are held per batch. */
const BATCH = 256;
/** Texts up to this size are handed to the workflow (not read twice); larger ones it reads itself. */
const INLINE_TEXT = 64 * 1024;
/**
 * A source id no document can have (a control character): the journal opened for it holds the
 * account's run lock for the whole import, across batches. It is never written.
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
  const options = job.client ? workflowOptions(job) : undefined;
  const hold = options ? await holdJournal(job, options) : undefined;
  let next = 0;
  try {
    while (next < job.files.length && !stopped) {
      if (job.signals.stop.aborted) {
        stopped = 'interrupted';
        break;
      }
      const batch = job.files.slice(next, next + BATCH);
      next += batch.length;
      const inputs: SpotInput[] = [];
      const warnings = new Map<string, Finding[]>();
      for (const [index, path] of batch.entries()) {
        const file = job.display(path);
        const read = await readDocumentText(path);
        if ('error' in read) {
          report({ file, status: 'failed', ok: false, reason: read.error, failure: 'unreadable', findings: [] });
          continue;
        }
        bytes += Buffer.byteLength(read.text);
        if (!options) {
          report(await dryRun(path, read.text, job));
        } else {
          const checked = await checkBeforeImport(path, read.text, job.rules, job.display);
          if (!checked.ok) report({ file, status: 'failed', ok: false, reason: checked.reason, failure: 'document', findings: checked.findings });
          else {
            if (checked.findings.length > 0) warnings.set(path, checked.findings);
            inputs.push({ path, label: file, ...(read.text.length <= INLINE_TEXT ? { text: read.text } : {}) });
          }
        }
        // Reading is synchronous: give the event loop a turn now and then (Ctrl-C, the bar, stdout).
        if (index % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
      }
      if (!options || inputs.length === 0) continue;
      const end = await runBatch(inputs, options, warnings, report, job.display);
      if (end.stoppedBy instanceof AuthenticationError) {
        stopped = 'credentialsRejected';
        stopError = end.stoppedBy;
      } else if (end.stoppedBy instanceof JournalLockedError) {
        throw new CliError(`Nothing more was sent. ${end.stoppedBy.message}`, EXIT.usage);
      } else if (end.stoppedBy && isCancellation(end.stoppedBy)) {
        stopped = 'interrupted';
      }
    }
    if (!stopped && job.signals.stop.aborted && next < job.files.length) stopped = 'interrupted';
    const why = stopped === 'credentialsRejected' ? 'the run stopped because the credentials were rejected' : 'the run was interrupted first';
    for (; next < job.files.length; next++) report({ file: job.display(job.files[next]), status: 'notAttempted', ok: false, reason: why, findings: [] });
  } finally {
    await hold?.release();
  }
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
    // The first Ctrl-C: the workflow stops after the request at hand (an upload in flight
    // finishes, so its outcome is recorded).
    signal: job.signals.stop,
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

async function runBatch(inputs: SpotInput[], options: MediaWorkflowOptions, warnings: Map<string, Finding[]>, report: (outcome: Outcome) => void, display: (path: string) => string): Promise<{ stoppedBy?: Error }> {
  const reported = new Set<string>();
  const result = await runMediaWorkflow(inputs, {
    ...options,
    onProgress: (event) => {
      if (event.kind !== 'spotDone' || event.outcome.error instanceof JournalLockedError) return;
      reported.add(event.outcome.path);
      report(toOutcome(event.outcome, warnings.get(event.outcome.path) ?? [], display));
    },
  });
  // Spots the run stopped before (cancelled, credentials refused) are settled without an event.
  for (const spot of result.spots) {
    if (reported.has(spot.path) || spot.error instanceof JournalLockedError) continue;
    report(toOutcome(spot, warnings.get(spot.path) ?? [], display));
  }
  return { stoppedBy: result.stoppedBy };
}

async function dryRun(path: string, text: string, job: ImportJob): Promise<Outcome> {
  const file = job.display(path);
  const checked = await checkDocumentText(path, text, job.rules, job.display);
  if (!checked.ok) return { file, status: 'failed', ok: false, reason: checked.reason, failure: 'document', findings: checked.findings };
  return { file, status: 'wouldImport', ok: true, findings: checked.findings, spot: { sourceId: checked.sourceId, pendingGalleries: [] } };
}
