// Spots with their media in one resumable step, for many documents at once: a bounded number of
// spots in flight, progress per spot and per byte, one step line per step, and a result for every
// input whatever ends the run (cancel, refused credentials, a journal another process holds).
import { AuthenticationError, CancelledError, type ServiceError } from '../api/errors';
import { DEFAULT_RETRY_POLICY } from '../api/retryPolicy';
import { JournalLockedError, MediaJournal } from './journal';
import { abandonSpot, finishSpot, prepareSpot, runSpotRequests, type PreparedSpot, type SpotRunContext } from './spotWorkflow';
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
    step: (label, sourceId, step, message) => tell(options.onStep, { label, sourceId, step, message }),
    bytes: (label, file, sentBytes, totalBytes) => tell(options.onProgress, { kind: 'bytes', index: indexOf.get(label) ?? 0, total, label, file, sentBytes, totalBytes }),
  };
  const claims = new SourceIdClaims(inputs);
  const spots: SpotOutcome[] = new Array(total);
  // Local work overlaps with other spots' requests: up to `concurrency` spots are checked ahead,
  // and a spot's write-back and journal record finish while the next spot's requests go out.
  const prepared = new Map<number, Promise<PreparedSpot | SpotOutcome>>();
  const prepare = (position: number) => {
    if (position < total && !prepared.has(position)) {
      const spot = prepareSpot(inputs[position], ctx, (sourceId) => claims.claim(position, sourceId))
        .catch((error: unknown) => unexpected(inputs[position], error))
        .finally(() => claims.pass(position));
      prepared.set(position, spot);
    }
    return prepared.get(position);
  };
  const finishing: Array<Promise<void>> = [];
  let next = 0;
  let started = 0;
  let finished = 0;
  let stoppedBy: ServiceError | undefined;
  const settle = (position: number, outcome: SpotOutcome) => {
    spots[position] = outcome;
    tell(options.onProgress, { kind: 'spotDone', done: ++finished, total, outcome });
  };

  const worker = async () => {
    while (next < total && !stoppedBy && !options.signal?.aborted) {
      const position = next++;
      const ready = prepare(position)!;
      for (let ahead = position + 1; ahead <= position + concurrency; ahead++) prepare(ahead);
      const label = inputs[position].label ?? inputs[position].path;
      indexOf.set(label, ++started);
      tell(options.onProgress, { kind: 'spot', index: started, total, label });
      const spot = await ready;
      prepared.delete(position);
      if (!('journal' in spot)) {
        if (spot.error instanceof JournalLockedError) stoppedBy ??= spot.error;
        settle(position, spot);
        continue;
      }
      if (options.signal?.aborted) {
        settle(position, abandonSpot(spot, 'Not started: the run was cancelled first.'));
        continue;
      }
      await runSpotRequests(spot, ctx);
      if (spot.outcome.error instanceof AuthenticationError) stoppedBy ??= spot.outcome.error;
      finishing.push(finishSpot(spot, ctx).then((outcome) => settle(position, outcome), (error: unknown) => settle(position, unexpected(inputs[position], error))));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
    await Promise.all(finishing);
  } finally {
    if (options.signal?.aborted) stoppedBy = new CancelledError(`Cancelled after ${finished} of ${total} spots.`);
    const reason =
      stoppedBy instanceof CancelledError
        ? 'Not started: the run was cancelled first.'
        : stoppedBy instanceof JournalLockedError
          ? 'Not started: another run is using the journal.'
          : 'Not started: the run stopped because the credentials were refused.';
    // Spots checked ahead but never sent: their journals are released as they were.
    for (const [position, pending] of prepared) {
      const spot = await pending;
      spots[position] = 'journal' in spot ? abandonSpot(spot, reason) : spot;
    }
    await journal.close();
    if (stoppedBy) tell(options.onStep, { label: '', step: 'stop', message: stoppedBy.message });
    for (let index = 0; index < total; index++) spots[index] ??= notStarted(inputs[index], reason);
  }
  return { spots, stoppedBy, totals: totalsOf(spots) };
}

/**
 * Two documents with one source_id would update one spot: the first in input order keeps it. Each
 * input claims in turn (after the one before it), so the result does not depend on which document
 * was read first.
 */
class SourceIdClaims {
  private readonly owners = new Map<string, string>();
  private readonly turns: Array<{ done: Promise<void>; open: () => void }>;

  constructor(private readonly inputs: readonly SpotInput[]) {
    this.turns = inputs.map(() => {
      let open!: () => void;
      const done = new Promise<void>((resolve) => (open = resolve));
      return { done, open };
    });
  }

  /** Gives up a turn that was not claimed (the input failed before it knew a source id). */
  async pass(position: number): Promise<void> {
    if (position > 0) await this.turns[position - 1].done;
    this.turns[position].open();
  }

  async claim(position: number, sourceId: string | undefined): Promise<string | undefined> {
    if (position > 0) await this.turns[position - 1].done;
    try {
      if (sourceId === undefined) return undefined;
      const owner = this.owners.get(sourceId);
      if (owner !== undefined) return owner;
      this.owners.set(sourceId, this.inputs[position].label ?? this.inputs[position].path);
      return undefined;
    } finally {
      this.turns[position].open();
    }
  }
}

function notStarted(input: SpotInput, reason: string): SpotOutcome {
  return {
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
