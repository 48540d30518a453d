// Imports many spot documents with a bounded number in flight. One bad document is reported and
// skipped; rejected credentials stop the run, since every later item would fail the same way.
// Whatever ends the run, every item gets a result, so nothing that happened is lost.
import { AuthenticationError, CancelledError, ServiceError, isCancellation } from '../api/errors';
import type { ImportResult } from '../api/replySchemas';
import type { ServiceClient } from '../api/serviceClient';
import { parseSpotText, type LocatedProblem } from '../documents/parseSpotText';
import { readSpotDocument } from '../documents/readDocument';
import { describeProblems } from '../documents/problemSummary';
import { sendSpot } from './sendSpot';
import type { GalleryFieldCatalog } from '../api/spotSchema';

export interface BulkItem {
  /** What the user recognises the item by, usually its file path. */
  label: string;
  read(): Promise<string>;
}

export type BulkItemResult =
  | { label: string; ok: true; sourceId: string; result: ImportResult }
  | { label: string; ok: false; reason: string; problems?: LocatedProblem[]; error?: ServiceError; notAttempted?: true };

export interface BulkImportOutcome {
  /** One result per item, in the items' order; items the run never reached say so. */
  results: BulkItemResult[];
  /** Set when the run ended early: cancelled, or the credentials were rejected. */
  stoppedBy?: ServiceError;
}

export interface BulkImportOptions {
  /** Imports in flight at once: 1 to 16, default 4. */
  concurrency?: number;
  signal?: AbortSignal;
  /** The topic definitions in effect: which members are galleries (see SpotRuleOptions). */
  topics?: GalleryFieldCatalog;
  onProgress?: (done: number, total: number, last: BulkItemResult) => void;
}

export const DEFAULT_CONCURRENCY = 4;

export async function bulkImport(
  items: BulkItem[],
  client: Pick<ServiceClient, 'importSpot'>,
  options: BulkImportOptions = {},
): Promise<BulkImportOutcome> {
  const concurrency = Math.max(1, Math.min(16, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY)));
  const results: BulkItemResult[] = new Array(items.length);
  let next = 0;
  let done = 0;
  let stopped: ServiceError | undefined;

  const worker = async () => {
    while (next < items.length && !stopped && !options.signal?.aborted) {
      const index = next++;
      const result = await importOne(items[index], client, options);
      if (!result.ok && result.error && (result.error instanceof AuthenticationError || isCancellation(result.error))) {
        stopped ??= result.error;
      }
      results[index] = result;
      options.onProgress?.(++done, items.length, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (options.signal?.aborted) stopped = new CancelledError(`Cancelled after ${done} of ${items.length} imports.`);
  const reason = stopped instanceof CancelledError ? 'Not imported: the run was cancelled first.' : 'Not imported: the run stopped because the credentials were rejected.';
  for (let index = 0; index < items.length; index++) {
    results[index] ??= { label: items[index].label, ok: false, reason, notAttempted: true };
  }
  return { results, stoppedBy: stopped };
}

async function importOne(item: BulkItem, client: Pick<ServiceClient, 'importSpot'>, { signal, topics }: BulkImportOptions): Promise<BulkItemResult> {
  let text: string;
  try {
    text = await item.read();
  } catch (error) {
    return { label: item.label, ok: false, reason: `Could not read the file: ${(error as Error).message}` };
  }
  const parsed = parseSpotText(text, { topics });
  if (!parsed.document) {
    return { label: item.label, ok: false, reason: describeProblems(parsed.problems, 'Not a spot document.'), problems: parsed.problems };
  }
  try {
    const result = await sendSpot(client, parsed, { signal });
    return { label: item.label, ok: true, sourceId: parsed.document.data.attributes.source_id, result };
  } catch (error) {
    if (error instanceof ServiceError) return { label: item.label, ok: false, reason: error.message, error };
    // A cancellation from below the client (an AbortError) still stops the run.
    if (isCancellation(error)) return { label: item.label, ok: false, reason: 'Cancelled.', error: new CancelledError() };
    // Anything else is a defect, not the service's doing: say so rather than blame the network.
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    return { label: item.label, ok: false, reason: `Unexpected failure (${name}): ${message}` };
  }
}

/**
 * Items that read spot documents from files (readSpotDocument: refusing ones too large to be a spot
 * document, or not UTF-8). The text is returned as read; parseSpotText drops a byte-order mark, so
 * it is never sent.
 */
export function fileItems(paths: string[]): BulkItem[] {
  return paths.map((path) => ({
    label: path,
    read: () => readSpotDocument(path),
  }));
}
