// The documents-only import: every document through the core's bulkImport (the very code behind
// the editor's Import Folder), one at a time per worker, so documents are read only when a worker
// takes them and each outcome is reported (and forgotten) as soon as it is known. bulkImport's
// own rules decide what stops the run (rejected credentials, cancellation); a journal lets a
// second run skip what the service has already confirmed.
import { AuthenticationError, ServiceError, bulkImport, isCancellation, type BulkItemResult, type ImportResult, type ServiceClient, type SpotDocument } from '../../core';
import { readDocumentText, checkDocumentText, toFindings, topicProblem } from '../documents/checkDocument';
import type { Outcome } from '../output/records';
import type { ImportRunEnd, ImportRunner } from './importRunner';
import { ImportJournal, sha256 } from './journal';

/** The project's topic and the document's differ: refused before anything is sent. */
class TopicMismatch extends ServiceError {
  constructor(readonly actual: number) {
    super('configuration', 'topic_id does not match the project topic');
  }
}

export const importDocumentsOnly: ImportRunner = async (job) => {
  const journal = job.dryRun || !job.client ? undefined : await ImportJournal.open(job.journalDir, job.target);
  if (journal && journal.recordedBefore > 0) {
    job.note(`Resuming: ${journal.recordedBefore} document(s) were imported by an earlier unfinished run (${job.display(journal.file)}); unchanged ones are not sent again.`);
  }
  const client = job.client && guardTopic(job.client, job.topic);
  let next = 0;
  let done = 0;
  let bytes = 0;
  let failed = 0;
  let pendingSpots = 0;
  let stopped: ImportRunEnd['stopped'];
  let stopError: ServiceError | undefined;

  const importOne = async (path: string): Promise<Outcome> => {
    const file = job.display(path);
    const read = await readDocumentText(path);
    if ('error' in read) return { file, status: 'failed', ok: false, reason: read.error, failure: 'unreadable', findings: [] };
    const text = read.text;
    bytes += Buffer.byteLength(text);
    if (!client) return dryRun(file, text, job.topic);
    const hash = sha256(text);
    const earlier = journal?.find(path, hash);
    if (earlier) {
      return { file, status: 'alreadyImported', ok: true, findings: [], spot: { sourceId: earlier.sourceId, spotId: earlier.spotId, pendingGalleries: earlier.pendingGalleries } };
    }
    const { results, stoppedBy } = await bulkImport([{ label: path, read: async () => text }], client, { signal: job.signals.abort });
    if (stoppedBy instanceof AuthenticationError) {
      stopped ??= 'credentialsRejected';
      stopError ??= stoppedBy;
    }
    const result = results[0];
    if (result.ok) {
      journal?.record({ file: path, sha256: hash, sourceId: result.sourceId, spotId: result.result.spotId, pendingGalleries: result.result.pendingGalleries });
      if (result.result.pendingGalleries.length > 0) pendingSpots++;
      return imported(file, result.sourceId, result.result);
    }
    return failure(file, text, result, job.topic);
  };

  const worker = async () => {
    while (next < job.files.length && !stopped && !job.signals.stop.aborted) {
      const outcome = await importOne(job.files[next++]);
      if (!outcome.ok) failed++;
      if (outcome.status === 'notAttempted' && job.signals.abort.aborted) stopped ??= 'interrupted';
      done++;
      job.report(outcome);
      job.progress({ done, bytes });
      // Documents skipped by the journal or checked in a dry run involve no network wait: give the
      // event loop a turn now and then (Ctrl-C, the progress bar, stdout).
      if (done % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(job.concurrency, job.files.length)) }, worker));
  if (!stopped && job.signals.stop.aborted && next < job.files.length) stopped = 'interrupted';

  const why = stopped === 'credentialsRejected' ? 'the run stopped because the credentials were rejected' : 'the run was interrupted first';
  for (; next < job.files.length; next++) {
    job.report({ file: job.display(job.files[next]), status: 'notAttempted', ok: false, reason: why, findings: [] });
    failed++;
  }
  if (pendingSpots > 0 && job.media.upload && !job.dryRun) {
    job.note(
      `${pendingSpots} spot(s) have pending galleries. Uploading media with the import is not part of this version: ` +
        'upload them with `spot-import upload --gallery ID FILE…` (the gallery ids are listed above), or pass --no-media to say so.',
    );
  }
  if (journal && !stopped && failed === 0) {
    await journal.remove();
    return { remaining: 0 };
  }
  await journal?.close();
  return { stopped, stopError, remaining: failed, ...(journal && journal.recorded > 0 ? { journal: { file: journal.file, recorded: journal.recorded } } : {}) };
};

/** A client that refuses a document of another topic, after the core has parsed it (one parse per document). */
function guardTopic(client: ServiceClient, topic: number | undefined): Pick<ServiceClient, 'importSpot'> {
  if (topic === undefined) return client;
  return {
    importSpot(document: unknown, options?: { signal?: AbortSignal; text?: string }) {
      const actual = (document as SpotDocument).data.attributes.topic_id;
      if (actual !== topic) return Promise.reject(new TopicMismatch(actual));
      return client.importSpot(document, options);
    },
  };
}

function imported(file: string, sourceId: string, result: ImportResult): Outcome {
  return {
    file,
    status: 'imported',
    ok: true,
    findings: [],
    spot: { sourceId, spotId: result.spotId, pendingGalleries: result.pendingGalleries, ...(result.state !== undefined ? { state: result.state } : {}) },
  };
}

function failure(file: string, text: string, result: Extract<BulkItemResult, { ok: false }>, topic: number | undefined): Outcome {
  if (result.error instanceof TopicMismatch) {
    const findings = toFindings(text, [topicProblem(text, result.error.actual, topic ?? Number.NaN)]);
    return { file, status: 'failed', ok: false, reason: findings[0].message, failure: 'document', findings };
  }
  if (result.problems) {
    return { file, status: 'failed', ok: false, reason: result.reason, failure: 'document', findings: toFindings(text, result.problems) };
  }
  if (result.notAttempted || (result.error && isCancellation(result.error))) {
    return { file, status: 'notAttempted', ok: false, reason: 'interrupted while it was being sent; a second run sends it again (an import is an upsert, so nothing is created twice)', findings: [] };
  }
  return { file, status: 'failed', ok: false, reason: result.reason, failure: 'service', findings: [] };
}

function dryRun(file: string, text: string, topic: number | undefined): Outcome {
  const checked = checkDocumentText(text, topic);
  if (!checked.ok) return { file, status: 'failed', ok: false, reason: checked.reason, failure: 'document', findings: checked.findings };
  return { file, status: 'wouldImport', ok: true, findings: [], spot: { sourceId: checked.document.data.attributes.source_id, pendingGalleries: [] } };
}
