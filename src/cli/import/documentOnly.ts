// --no-media: each document sent as it is, its gallery fields left pending, media folders not
// looked at. "Already imported" is the media workflow's rule, kept in the same spot journal: the
// record's finalImport holds the SHA-256 of the text last imported (the workflow's plain import
// reads and writes the same fields), so a later run with or without media agrees with this one.
// (The workflow has no documents-only switch yet; this is the few lines of its plain import.)
import { AuthenticationError, describeProblems, isCancellation, parseSpotText, sendSpot, type MediaJournal, type MediaWorkflowOptions, type SpotInput } from '../../core';
import { hashText } from '../../core/media/contentKey';
import { readDocumentText, toFindings } from '../documents/checkDocument';
import type { Finding, Outcome } from '../output/records';

export interface DocumentOnlyRun {
  journal: MediaJournal;
  client: MediaWorkflowOptions['client'];
  concurrency: number;
  signal: AbortSignal;
  warnings: Map<string, Finding[]>;
  report(outcome: Outcome): void;
  display(path: string): string;
}

export async function importDocumentOnly(inputs: readonly SpotInput[], run: DocumentOnlyRun): Promise<{ stoppedBy?: Error }> {
  let next = 0;
  let stoppedBy: Error | undefined;
  const worker = async () => {
    while (next < inputs.length && !stoppedBy && !run.signal.aborted) {
      const input = inputs[next++];
      const outcome = await importOne(input, run).catch((error: unknown): Outcome => {
        if (error instanceof AuthenticationError) stoppedBy ??= error;
        if (isCancellation(error)) return { file: input.label!, status: 'notAttempted', ok: false, reason: 'interrupted while it was being sent; a second run sends it again (an import is an upsert, so nothing is created twice)', findings: [] };
        return { file: input.label!, status: 'failed', ok: false, reason: (error as Error).message, failure: 'service', findings: [] };
      });
      run.report(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(run.concurrency, inputs.length)) }, worker));
  const why = stoppedBy ? 'the run stopped because the credentials were rejected' : 'the run was interrupted first';
  for (; next < inputs.length; next++) run.report({ file: inputs[next].label!, status: 'notAttempted', ok: false, reason: why, findings: [] });
  return { stoppedBy: stoppedBy ?? (run.signal.aborted ? Object.assign(new Error('Interrupted.'), { name: 'AbortError' }) : undefined) };
}

async function importOne(input: SpotInput, run: DocumentOnlyRun): Promise<Outcome> {
  const file = input.label!;
  const warnings = run.warnings.get(input.path) ?? [];
  let text = input.text;
  if (text === undefined) {
    const read = await readDocumentText(input.path);
    if ('error' in read) return { file, status: 'failed', ok: false, reason: read.error, failure: 'unreadable', findings: [] };
    text = read.text;
  }
  const payload = parseSpotText(text);
  if (!payload.document) {
    return { file, status: 'failed', ok: false, reason: describeProblems(payload.problems), failure: 'document', findings: [...toFindings(text, payload.problems, run.display), ...warnings] };
  }
  const attributes = payload.document.data.attributes;
  const journal = await run.journal.open(attributes.source_id, input.path);
  try {
    const record = journal.record;
    const sha256 = hashText(payload.text);
    if (record.finalImport?.sha256 === sha256) {
      return { file, status: 'alreadyImported', ok: true, findings: warnings, spot: { sourceId: attributes.source_id, ...(record.spotId !== undefined ? { spotId: record.spotId } : {}), pendingGalleries: [] } };
    }
    const result = await sendSpot(run.client, payload, { signal: run.signal });
    record.spotId = result.spotId;
    record.finalImport = { sha256, state: attributes.state, at: new Date().toISOString() };
    await journal.save();
    return {
      file,
      status: 'imported',
      ok: true,
      findings: warnings,
      spot: { sourceId: attributes.source_id, spotId: result.spotId, pendingGalleries: result.pendingGalleries, ...(result.state !== undefined ? { state: result.state } : {}) },
    };
  } finally {
    journal.release();
  }
}
