// Spots with their media in one resumable step, for many documents at once: a bounded number of
// spots in flight, progress per spot and per byte, one step line per step, and a result for every
// input whatever ends the run (cancel, refused credentials, a journal another process holds).
import { AuthenticationError, CancelledError, type ServiceError } from '../api/errors';
import { DEFAULT_RETRY_POLICY } from '../api/retryPolicy';
import { SourceIdOwners } from '../documents/sourceIds';
import { HeldContent } from './heldContent';
import { JournalLockedError, MediaJournal } from './journal';
import { abandonSpot, blankOutcome, finishSpot, prepareSpot, runSpotRequests, type PreparedSpot, type SpotRunContext } from './spotWorkflow';
import type { MediaWorkflowOptions, MediaWorkflowOutcome, SpotInput, SpotOutcome, WorkflowProgress, WorkflowStep } from './types';

export const DEFAULT_MEDIA_CONCURRENCY = 4;

export async function runMediaWorkflow(inputs: readonly SpotInput[], options: MediaWorkflowOptions): Promise<MediaWorkflowOutcome> {
  const spots: SpotOutcome[] = new Array(inputs.length);
  const end = await streamMediaWorkflow(inputs, options, { total: inputs.length, settled: (position, outcome) => (spots[position] = outcome) });
  for (let index = 0; index < inputs.length; index++) spots[index] ??= notStarted(inputs[index], end.reason);
  return { spots, stoppedBy: end.stoppedBy, totals: totalsOf(spots) };
}

export interface WorkflowStream {
  /** For progress events: how many inputs the caller expects (default 0: not known). */
  total?: number;
  /** Each input's outcome, once, by its position in the input order (progress's spotDone too). */
  settled?: (position: number, outcome: SpotOutcome) => void;
  /** The account's journal, opened by the caller (who closes it): default one of the run's own. */
  journal?: MediaJournal;
}

export interface WorkflowStreamEnd {
  /** Set when the run ended early: cancelled, the credentials were refused, the journal is locked. */
  stoppedBy?: ServiceError;
  /** Why inputs the run never took were not started (for the caller's results). */
  reason: string;
}

/**
 * The workflow over inputs taken one at a time as the run needs them (read ahead by at most
 * `concurrency`), so a caller with 100,000 documents never holds their texts or outcomes at once,
 * and the requests never wait for a batch to be read. Inputs the run never took (it stopped
 * first) are neither taken from the iterator nor settled.
 */
export async function streamMediaWorkflow(inputs: Iterable<SpotInput> | AsyncIterable<SpotInput>, options: MediaWorkflowOptions, stream: WorkflowStream = {}): Promise<WorkflowStreamEnd> {
  const concurrency = Math.max(1, Math.min(16, Math.floor(options.concurrency ?? DEFAULT_MEDIA_CONCURRENCY)));
  const total = stream.total ?? 0;
  const journal = stream.journal ?? new MediaJournal(options.journalDir, { serviceUrl: serviceUrlOf(options.client.apiRoot), clientId: options.clientId });
  const indexOf = new Map<string, number>();
  // The document of this run that names each gallery for its media, first come (see galleryOfAnotherSpot).
  const galleryClaims = new Map<number, string>();
  const ctx: SpotRunContext = {
    options,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    journal,
    held: new HeldContent(),
    claimGallery: (galleryId, path, owned) => {
      const earlier = galleryClaims.get(galleryId);
      if (owned || earlier === undefined) galleryClaims.set(galleryId, path);
      return owned || earlier === path ? undefined : earlier;
    },
    step: (label, sourceId, step, message) => tell(options.onStep, { label, sourceId, step, message }),
    bytes: (label, file, sentBytes, totalBytes) => tell(options.onProgress, { kind: 'bytes', index: indexOf.get(label) ?? 0, total, label, file, sentBytes, totalBytes }),
  };
  const source = new InputSource(inputs);
  const claims = new SourceIdClaims();
  // Local work overlaps with other spots' requests: up to `concurrency` spots are checked ahead,
  // and a spot's write-back and journal record finish while the next spot's requests go out.
  interface Ahead {
    position: number;
    input: SpotInput;
    spot: Promise<PreparedSpot | SpotOutcome>;
  }
  const ahead: Array<Promise<Ahead | undefined>> = [];
  const prepareNext = () =>
    source.next().then((taken) => {
      if (!taken) return undefined;
      const { position, input } = taken;
      const spot = prepareSpot(input, ctx, (sourceId) => claims.claim(position, input.path, sourceId))
        .catch((error: unknown) => unexpected(input, error))
        .finally(() => claims.pass(position));
      return { position, input, spot };
    });
  const finishing = new Set<Promise<void>>();
  let started = 0;
  let finished = 0;
  let stoppedBy: ServiceError | undefined;
  const settle = (position: number, outcome: SpotOutcome) => {
    indexOf.delete(outcome.label);
    stream.settled?.(position, outcome);
    tell(options.onProgress, { kind: 'spotDone', done: ++finished, total, outcome });
  };

  const worker = async () => {
    while (!stoppedBy && !options.signal?.aborted) {
      const taken = ahead.shift() ?? prepareNext();
      while (ahead.length < concurrency) ahead.push(prepareNext());
      const next = await taken;
      if (!next) break;
      const { position, input } = next;
      const label = labelOf(input);
      indexOf.set(label, ++started);
      tell(options.onProgress, { kind: 'spot', index: started, total, label });
      const spot = await next.spot;
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
      const finish = finishSpot(spot, ctx).then(
        (outcome) => settle(position, outcome),
        (error: unknown) => settle(position, unexpected(input, error)),
      );
      finishing.add(finish);
      void finish.finally(() => finishing.delete(finish));
    }
  };
  let reason = '';
  try {
    // Settled, not all: a worker that throws (the caller's input failed) must not close the
    // journal below while the other workers still send; its error is thrown once they are done.
    const workers = await Promise.allSettled(Array.from({ length: concurrency }, worker));
    await Promise.allSettled(finishing);
    const failed = workers.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    if (options.signal?.aborted) stoppedBy = new CancelledError(`Cancelled after ${finished} of ${total || started} spots.`);
    reason =
      stoppedBy instanceof CancelledError
        ? 'Not started: the run was cancelled first.'
        : stoppedBy instanceof JournalLockedError
          ? 'Not started: another run is using the journal.'
          : 'Not started: the run stopped because the credentials were refused.';
    // Spots checked ahead but never sent: their journals are released as they were.
    for (const pending of ahead) {
      const next = await pending.catch(() => undefined);
      if (!next) continue;
      const spot = await next.spot;
      settle(next.position, 'journal' in spot ? abandonSpot(spot, reason) : spot);
    }
    if (!stream.journal) await journal.close();
    if (stoppedBy) tell(options.onStep, { label: '', step: 'stop', message: stoppedBy.message });
  }
  return { stoppedBy, reason };
}

function labelOf(input: SpotInput): string {
  return input.label ?? input.path;
}

/** Takes inputs one at a time, in order, from an array, a generator or an async generator. */
class InputSource {
  private readonly iterator: Iterator<SpotInput> | AsyncIterator<SpotInput>;
  private chain: Promise<unknown> = Promise.resolve();
  private taken = 0;
  private ended = false;

  constructor(inputs: Iterable<SpotInput> | AsyncIterable<SpotInput>) {
    this.iterator = Symbol.asyncIterator in inputs ? inputs[Symbol.asyncIterator]() : inputs[Symbol.iterator]();
  }

  next(): Promise<{ position: number; input: SpotInput } | undefined> {
    const taken = this.chain.then(async () => {
      if (this.ended) return undefined;
      const result = await this.iterator.next();
      if (result.done) {
        this.ended = true;
        return undefined;
      }
      return { position: this.taken++, input: result.value };
    });
    this.chain = taken.catch(() => (this.ended = true));
    return taken;
  }
}

/**
 * The run's SourceIdOwners (documents/sourceIds.ts: the first in input order keeps a source id),
 * claimed concurrently: each input claims in turn (after the one before it), so the result does
 * not depend on which document was read first.
 */
class SourceIdClaims {
  private readonly owners = new SourceIdOwners();
  /** Inputs before this position have had their turn. */
  private nextTurn = 0;
  private readonly waiting = new Map<number, () => void>();

  /** Gives up a turn that was not claimed (the input failed before it knew a source id). */
  async pass(position: number): Promise<void> {
    if (this.nextTurn > position) return;
    await this.waitTurn(position);
    this.open(position);
  }

  async claim(position: number, path: string, sourceId: string | undefined): Promise<string | undefined> {
    await this.waitTurn(position);
    try {
      return sourceId === undefined ? undefined : this.owners.claim(sourceId, path);
    } finally {
      this.open(position);
    }
  }

  private async waitTurn(position: number): Promise<void> {
    if (this.nextTurn < position) await new Promise<void>((resolve) => this.waiting.set(position, resolve));
  }

  private open(position: number): void {
    if (this.nextTurn !== position) return;
    this.nextTurn++;
    const wake = this.waiting.get(this.nextTurn);
    this.waiting.delete(this.nextTurn);
    wake?.();
  }
}

function notStarted(input: SpotInput, reason: string): SpotOutcome {
  return { ...blankOutcome(input, 'not-started'), reason, remaining: ['everything: the spot was not started'] };
}

/** One spot on its own (the editor's command): the same workflow, one result. */
export async function importSpotWithMedia(input: SpotInput, options: MediaWorkflowOptions): Promise<SpotOutcome> {
  return (await runMediaWorkflow([input], { ...options, concurrency: 1 })).spots[0];
}

/** A defect, not a service failure: reported on the spot rather than losing the other results. */
function unexpected(input: SpotInput, error: unknown): SpotOutcome {
  return { ...blankOutcome(input), reason: `Unexpected failure: ${(error as Error)?.message ?? String(error)}`, remaining: ['run again after the cause is fixed'] };
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
