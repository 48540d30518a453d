// Spots with their media in one resumable step, for many documents at once: a bounded number of
// spots in flight, progress per spot and per byte, one step line per step, and a result for every
// input whatever ends the run (cancel, refused credentials).
import { AuthenticationError, CancelledError, type ServiceError } from '../api/errors';
import { DEFAULT_RETRY_POLICY } from '../api/retryPolicy';
import { MediaJournal } from './journal';
import { runSpot, type SpotRunContext } from './spotWorkflow';
import type { MediaWorkflowOptions, MediaWorkflowOutcome, SpotInput, SpotOutcome, WorkflowProgress, WorkflowStep } from './types';

export const DEFAULT_MEDIA_CONCURRENCY = 4;

export async function runMediaWorkflow(inputs: readonly SpotInput[], options: MediaWorkflowOptions): Promise<MediaWorkflowOutcome> {
  const concurrency = Math.max(1, Math.min(16, Math.floor(options.concurrency ?? DEFAULT_MEDIA_CONCURRENCY)));
  const total = inputs.length;
  const journal = new MediaJournal(options.journalDir, { serviceUrl: serviceUrlOf(options.client.apiRoot), clientId: options.clientId });
  const indexOf = new Map<string, number>();
  const ctx: SpotRunContext = {
    options,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    journal,
    sourceIds: new Map(),
    step: (label, sourceId, step, message) => tell(options.onStep, { label, sourceId, step, message }),
    bytes: (label, file, sentBytes, totalBytes) => tell(options.onProgress, { kind: 'bytes', index: indexOf.get(label) ?? 0, total, label, file, sentBytes, totalBytes }),
  };
  const spots: SpotOutcome[] = new Array(total);
  let next = 0;
  let started = 0;
  let finished = 0;
  let stoppedBy: ServiceError | undefined;

  const worker = async () => {
    while (next < total && !stoppedBy && !options.signal?.aborted) {
      const position = next++;
      const input = inputs[position];
      const label = input.label ?? input.path;
      indexOf.set(label, ++started);
      tell(options.onProgress, { kind: 'spot', index: started, total, label });
      const outcome = await runSpot(input, ctx).catch((error: unknown) => unexpected(input, error));
      if (outcome.error instanceof AuthenticationError) stoppedBy ??= outcome.error;
      spots[position] = outcome;
      tell(options.onProgress, { kind: 'spotDone', done: ++finished, total, outcome });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  } finally {
    await journal.close();
  }
  if (options.signal?.aborted) stoppedBy = new CancelledError(`Cancelled after ${finished} of ${total} spots.`);
  if (stoppedBy) tell(options.onStep, { label: '', step: 'stop', message: stoppedBy.message });
  const reason = stoppedBy instanceof CancelledError ? 'Not started: the run was cancelled first.' : 'Not started: the run stopped because the credentials were refused.';
  for (let index = 0; index < total; index++) {
    const input = inputs[index];
    spots[index] ??= {
      label: input.label ?? input.path,
      path: input.path,
      status: 'not-started',
      imported: 'none',
      withMedia: false,
      galleries: [],
      problems: [],
      writeBack: { status: 'not-reached' },
      reason,
      remaining: ['everything: the spot was not started'],
    };
  }
  return { spots, stoppedBy, totals: totalsOf(spots) };
}

/** One spot on its own (the editor's command): the same workflow, one result. */
export async function importSpotWithMedia(input: SpotInput, options: MediaWorkflowOptions): Promise<SpotOutcome> {
  return (await runMediaWorkflow([input], { ...options, concurrency: 1 })).spots[0];
}

/** A defect, not a service failure: reported on the spot rather than losing the other results. */
function unexpected(input: SpotInput, error: unknown): SpotOutcome {
  return {
    label: input.label ?? input.path,
    path: input.path,
    status: 'failed',
    imported: 'none',
    withMedia: false,
    galleries: [],
    problems: [],
    writeBack: { status: 'not-reached' },
    reason: `Unexpected failure: ${(error as Error)?.message ?? String(error)}`,
    remaining: ['run again after the cause is fixed'],
  };
}

/** The service's address without the /api/{version} part: changing the version keeps the journal. */
export function serviceUrlOf(apiRoot: string): string {
  return apiRoot.replace(/\/api\/[^/]+\/?$/, '');
}

function totalsOf(spots: SpotOutcome[]): MediaWorkflowOutcome['totals'] {
  const count = (status: SpotOutcome['status']) => spots.filter((spot) => spot.status === status).length;
  const sum = (pick: (gallery: SpotOutcome['galleries'][number]) => number) => spots.reduce((all, spot) => all + spot.galleries.reduce((n, g) => n + pick(g), 0), 0);
  return {
    done: count('done'),
    failed: count('failed'),
    invalid: count('invalid'),
    cancelled: count('cancelled'),
    notStarted: count('not-started'),
    uploaded: sum((g) => g.uploaded),
    resolved: sum((g) => g.resolved),
    skipped: sum((g) => g.skipped),
  };
}

/** A front end's callback that throws must not break the run (or leave a journal half-done). */
function tell<T extends WorkflowProgress | WorkflowStep>(callback: ((event: T) => void) | undefined, event: T): void {
  try {
    callback?.(event);
  } catch {
    // Reporting is best effort; the outcome carries everything.
  }
}
