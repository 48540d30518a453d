// The import engine: spots, with or without media, in one resumable run, for one spot or 100,000:
// a bounded number of spots in flight, progress per spot and per byte, one step line per step, and
// a typed outcome for every spot whatever ends the run (cancel, refused credentials, the network,
// a journal another process holds). Spots come from a SpotSource (spot documents today, rows of
// a table next); each goes through spotSteps.ts: check, import, upload, order, write back.
import { AuthenticationError, CancelledError, isCancellation, type ServiceError } from '../api/errors';
import { DEFAULT_RETRY_POLICY } from '../api/retryPolicy';
import { SourceIdOwners } from '../documents/sourceIds';
import { clampConcurrency } from './concurrency';
import { HeldContent } from '../media/heldContent';
import { RunGalleryClaims } from '../media/galleryClaims';
import { JournalError, ImportJournal, type JournalAccount } from '../journal/journal';
import {
  abandonSpot,
  blankOutcome,
  finishSpot,
  notStartedParts,
  prepareSpot,
  runSpotRequests,
  unexpected,
  type PreparedSpot,
  type SourceIdTurn,
  type SpotRunContext,
} from './spotSteps';
import type {
  EngineOptions,
  ImportCheckOptions,
  ImportRunOptions,
  ImportOutcome,
  RunStop,
  RunStopKind,
  SpotInput,
  SpotOutcome,
  SpotSource,
  ImportProgress,
  SpotStep,
} from './types';
import { l10n } from '../text/l10n';
import { withMembers } from '../objects/withMembers';

/** A source, or its spots as they are (an array, a generator). */
export type SpotsOrSource = SpotSource | Iterable<SpotInput> | AsyncIterable<SpotInput>;

/** The whole run, every spot's outcome kept (a front end that shows them all). */
export async function runImport(source: SpotsOrSource, options: ImportRunOptions): Promise<ImportOutcome> {
  const spots: SpotOutcome[] = [];
  const given = asSource(source);
  const inputs: SpotInput[] = [];
  const iterator = remember(given.spots(), inputs);
  const end = await streamImport({ total: given.total, spots: () => iterator }, options, (position, outcome) => (spots[position] = outcome));
  // The spots the run never took (it stopped first) are still answered for, in their order.
  for await (const input of iterator) void input;
  for (let index = 0; index < inputs.length; index++) spots[index] ??= notStarted(inputs[index], end.stop?.kind ?? 'cancelled');
  return { spots, stop: end.stop, totals: totalsOf(spots) };
}

/** One spot on its own (the editor's commands): the same engine, one result. */
export async function importOneSpot(input: SpotInput, options: ImportRunOptions): Promise<SpotOutcome> {
  return (await runImport([input], withMembers(options, { concurrency: 1 }))).spots[0];
}

export interface ImportStreamEnd {
  /** Set when the run ended before its last spot. */
  stop?: RunStop;
}

/**
 * The engine over spots taken one at a time as the run needs them (read ahead by at most
 * `concurrency`), so a caller with 100,000 documents never holds their texts or outcomes at once,
 * and the requests never wait for a batch to be read. `settled` gets each taken spot's outcome
 * once, by its position in the source's order; spots the run never took (it stopped first) are
 * neither taken from the source nor settled.
 */
export async function streamImport(
  source: SpotsOrSource,
  options: ImportRunOptions,
  settled?: (position: number, outcome: SpotOutcome) => void,
): Promise<ImportStreamEnd> {
  const journal = new ImportJournal(options.journal.dir, options.journal.account, options.journal.accounts, options.journal.log);
  // The account's lock first: another process using the journal is found before anything is sent.
  try {
    await journal.acquire();
  } catch (error) {
    const stop = { kind: 'journal' as const, error: error as JournalError };
    tell(options.onStep, { label: '', step: 'stop', message: stop.error.message });
    return { stop };
  }
  return runEngine(source, options, journal, settled);
}

/**
 * Every spot checked as an import prepares it (the same read, parse, source_id rule and checks of
 * the document and its media), with nothing sent and no journal opened: the CLI's validate and dry
 * run and the editor's checks of a table say of each spot what an import would do with it.
 * `settled` gets each spot's outcome: checked, invalid, or failed (unreadable).
 */
export function checkSpots(
  source: SpotsOrSource,
  options: ImportCheckOptions,
  settled?: (position: number, outcome: SpotOutcome) => void,
): Promise<ImportStreamEnd> {
  return runEngine(source, withMembers(options, { client: SENDS_NOTHING }), undefined, settled);
}

/** A check's client: the engine never asks it (a spot is settled once checked); if it did, that is a defect, not a request. */
const refuseRequest = (): never => {
  throw new Error('a check sends nothing: no request may be made');
};
const SENDS_NOTHING: ImportRunOptions['client'] = {
  importSpot: refuseRequest,
  getGallery: refuseRequest,
  uploadMedia: refuseRequest,
  setMediaOrder: refuseRequest,
};

/** The run over the source: with a journal, an import; without one, a check that sends nothing. */
async function runEngine(
  source: SpotsOrSource,
  options: EngineOptions,
  journal: ImportJournal | undefined,
  settled: ((position: number, outcome: SpotOutcome) => void) | undefined,
): Promise<ImportStreamEnd> {
  const concurrency = clampConcurrency(options.concurrency);
  const spots = asSource(source);
  const total = spots.total ?? 0;
  const indexOf = new Map<string, number>();
  // The document of this run that names each gallery for its media, first come (see galleryOfAnotherSpot).
  const galleryClaims = new RunGalleryClaims();
  const ctx: SpotRunContext = {
    options,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    journal,
    held: new HeldContent(),
    claimGallery: (galleryId, path, owned) => galleryClaims.claim(galleryId, path, owned),
    // Without a listener no event is made (a bulk import's front end may have none).
    step: options.onStep ? (label, sourceId, step, message) => tell(options.onStep, { label, sourceId, step, message }) : noStep,
    bytes: (label, file, sentBytes, totalBytes) =>
      tell(options.onProgress, { kind: 'bytes', index: indexOf.get(label) ?? 0, total, label, file, sentBytes, totalBytes }),
  };
  let inputs: InputSource;
  try {
    inputs = new InputSource(spots.spots());
  } catch (error) {
    // A source that fails before its first input: the lock taken above is given back.
    await journal?.close();
    throw error;
  }
  const run = new EngineRun(options, ctx, inputs, concurrency, total, indexOf, settled);
  try {
    // Settled, not all: a worker that throws (the caller's source failed) must not close the
    // journal below while the other workers still send; its error is thrown once they are done.
    const workers = await Promise.allSettled(Array.from({ length: concurrency }, () => run.worker()));
    await Promise.allSettled(run.finishing.values());
    const failed = workers.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) throw failed.reason;
    if (run.settledFailure) throw run.settledFailure.error;
  } finally {
    if (options.signal?.aborted)
      run.stop = { kind: 'cancelled', error: new CancelledError(l10n.t('Cancelled after {0} of {1} spots.', run.finished, total || run.started)) };
    // Spots checked ahead but never sent: their journals are released as they were.
    for (const pending of run.ahead) {
      const next = await pending.catch(() => undefined);
      if (!next) continue;
      const spot = await next.spot;
      run.settle(next.position, 'journal' in spot ? abandonSpot(spot, run.stop?.kind ?? 'cancelled') : spot);
    }
    await journal?.close();
    if (run.stop) tell(options.onStep, { label: '', step: 'stop', message: run.stop.error.message });
  }
  return { stop: run.stop };
}

/** A spot taken from the source, its check under way. */
interface Ahead {
  position: number;
  input: SpotInput;
  spot: Promise<PreparedSpot | SpotOutcome>;
}

/**
 * One run's workers and what they share. Methods, not closures made for every run: V8 keeps a
 * closure's optimized code only while an instance of that closure lives, so a run's new closures
 * would be compiled again after each full garbage collection between two runs (an extension host
 * collects between two imports); a method is one function for every run (docs/performance.md).
 */
class EngineRun {
  /** Spots checked ahead of the requests, in order: up to `concurrency` of them. */
  readonly ahead: Array<Promise<Ahead | undefined>> = [];
  /** Write-backs and journal records still finishing, by position, while later spots are sent. */
  readonly finishing = new Map<number, Promise<void>>();
  private readonly claims = new SourceIdClaims();
  started = 0;
  finished = 0;
  stop: RunStop | undefined;
  /** The first error the caller's `settled` threw, thrown once the run is over. */
  settledFailure: { error: unknown } | undefined;

  constructor(
    private readonly options: EngineOptions,
    private readonly ctx: SpotRunContext,
    private readonly inputs: InputSource,
    private readonly concurrency: number,
    private readonly total: number,
    private readonly indexOf: Map<string, number>,
    private readonly settled: ((position: number, outcome: SpotOutcome) => void) | undefined,
  ) {}

  async worker(): Promise<void> {
    const { options, ahead } = this;
    while (!this.stop && !this.settledFailure && !options.signal?.aborted) {
      const taken = ahead.shift() ?? this.prepareNext();
      while (ahead.length < this.concurrency) ahead.push(this.prepareNext());
      const next = await taken;
      if (!next) break;
      const { position, input } = next;
      const started = ++this.started;
      if (options.onProgress) {
        const label = input.label ?? input.path;
        this.indexOf.set(label, started);
        tell(options.onProgress, { kind: 'spot', index: started, total: this.total, label });
      }
      const spot = await next.spot;
      if (!('journal' in spot)) {
        this.settle(position, spot);
        continue;
      }
      if (options.signal?.aborted) {
        this.settle(position, abandonSpot(spot, 'cancelled'));
        continue;
      }
      await runSpotRequests(spot, this.ctx);
      this.stop ??= runStopFor(spot.outcome.error);
      // Set before finishAndSettle can delete it: that awaits finishSpot before its delete.
      this.finishing.set(position, this.finishAndSettle(spot, position, input));
    }
  }

  settle(position: number, outcome: SpotOutcome): void {
    this.finished++;
    try {
      this.settled?.(position, outcome);
    } catch (error) {
      // The caller's (the command line writes its report line here): no spot is started after it,
      // the spots under way finish and the journal is given back; the run then throws it, rather
      // than an unhandled rejection.
      this.settledFailure ??= { error };
    }
    if (!this.options.onProgress) return;
    this.indexOf.delete(outcome.label);
    tell(this.options.onProgress, { kind: 'spotDone', done: this.finished, total: this.total, outcome });
  }

  private prepareNext(): Promise<Ahead | undefined> {
    const next = this.take();
    // A source that fails rejects this promise while it waits in `ahead` for a worker, which
    // throws it then (or the run's end passes it by): not an unhandled rejection meanwhile, which
    // ends a process that has no handler for one.
    next.catch(ignoreRejection);
    return next;
  }

  private async take(): Promise<Ahead | undefined> {
    let taken: Awaited<ReturnType<InputSource['next']>>;
    try {
      taken = await this.inputs.next();
    } catch (error) {
      // A source that honours the run's signal (a table's rows) stops with a cancellation when it
      // fires: that is the run's stop (said below as cancelled), not a failure of the source.
      if (this.options.signal?.aborted && isCancellation(error)) return undefined;
      throw error;
    }
    return taken ? { position: taken.position, input: taken.input, spot: this.prepare(taken.position, taken.input) } : undefined;
  }

  /** One async frame per spot for its check, its defect and its turn (not .catch().finally()). */
  private async prepare(position: number, input: SpotInput): Promise<PreparedSpot | SpotOutcome> {
    try {
      return await prepareSpot(input, this.ctx, this.claims.turn(position, input.path));
    } catch (error) {
      return unexpected(input, error);
    } finally {
      this.claims.pass(position);
    }
  }

  private async finishAndSettle(spot: PreparedSpot, position: number, input: SpotInput): Promise<void> {
    let outcome: SpotOutcome;
    try {
      outcome = await finishSpot(spot, this.ctx);
    } catch (error) {
      outcome = unexpected(input, error);
    }
    this.finishing.delete(position);
    this.settle(position, outcome);
  }
}

function ignoreRejection(): void {
  // Handled where the promise is awaited.
}

/** The step listener of a run without one: one function for every run (see EngineRun). */
function noStep(): void {
  // No listener: no event is made.
}

/**
 * A failure that ends the run, since every later spot would meet it too: refused credentials, a
 * service that cannot be reached (after the client's own retries), or a cancellation from below
 * the client (an AbortError) even without the run's signal.
 */
function runStopFor(error: ServiceError | undefined): RunStop | undefined {
  if (error instanceof AuthenticationError) return { kind: 'credentials', error };
  if (error && isCancellation(error)) return { kind: 'cancelled', error };
  if (error && error.kind === 'network') return { kind: 'network', error };
  return undefined;
}

/** The journal's account of a client: the service without the /api/{version} part (changing the version keeps the journal). */
export function journalAccountOf(apiRoot: string, clientId: string): JournalAccount {
  return { serviceUrl: serviceUrlOf(apiRoot), clientId };
}

/** The service's address without the /api/{version} part. */
export function serviceUrlOf(apiRoot: string): string {
  return apiRoot.replace(/\/api\/[^/]+\/?$/, '');
}

function asSource(source: SpotsOrSource): SpotSource {
  if ('spots' in source && typeof source.spots === 'function') return source;
  const spots = source as Iterable<SpotInput> | AsyncIterable<SpotInput>;
  return { total: Array.isArray(spots) ? spots.length : undefined, spots: () => spots };
}

/**
 * The spots as the run takes them, each also kept in `seen`. Spots given as an array (or another
 * iterable) stay one: each step of an async generator costs the run several promises per spot.
 */
function remember(spots: Iterable<SpotInput> | AsyncIterable<SpotInput>, seen: SpotInput[]): Iterable<SpotInput> | AsyncIterable<SpotInput> {
  return Symbol.asyncIterator in spots ? rememberAsync(spots, seen) : rememberSync(spots, seen);
}

function* rememberSync(spots: Iterable<SpotInput>, seen: SpotInput[]): Generator<SpotInput> {
  for (const input of spots) {
    seen.push(input);
    yield input;
  }
}

async function* rememberAsync(spots: AsyncIterable<SpotInput>, seen: SpotInput[]): AsyncGenerator<SpotInput> {
  for await (const input of spots) {
    seen.push(input);
    yield input;
  }
}

/** Takes inputs one at a time, in order, from an array, a generator or an async generator. */
class InputSource {
  private readonly iterator?: AsyncIterator<SpotInput>;
  /** Taken at once: in order without a chain of promises (one spot costs several fewer). */
  private readonly syncIterator?: Iterator<SpotInput>;
  private chain: Promise<unknown> = Promise.resolve();
  private taken = 0;
  private ended = false;

  constructor(inputs: Iterable<SpotInput> | AsyncIterable<SpotInput>) {
    if (Symbol.asyncIterator in inputs) this.iterator = inputs[Symbol.asyncIterator]();
    else this.syncIterator = inputs[Symbol.iterator]();
  }

  next(): Promise<{ position: number; input: SpotInput } | undefined> {
    if (this.syncIterator) return this.nextNow(this.syncIterator);
    const iterator = this.iterator!;
    const taken = this.chain.then(async () => {
      if (this.ended) return undefined;
      const result = await iterator.next();
      if (result.done) {
        this.ended = true;
        return undefined;
      }
      return { position: this.taken++, input: result.value };
    });
    this.chain = taken.catch(() => (this.ended = true));
    return taken;
  }

  private nextNow(iterator: Iterator<SpotInput>): Promise<{ position: number; input: SpotInput } | undefined> {
    if (this.ended) return Promise.resolve(undefined);
    try {
      const result = iterator.next();
      if (result.done) {
        this.ended = true;
        return Promise.resolve(undefined);
      }
      return Promise.resolve({ position: this.taken++, input: result.value });
    } catch (error) {
      this.ended = true;
      return Promise.reject(error);
    }
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
  pass(position: number): void {
    if (this.nextTurn > position) return;
    if (this.nextTurn < position) this.waiting.set(position, () => this.open(position));
    else this.open(position);
  }

  /** The input's turn, for prepareSpot (an object rather than a closure: see EngineRun). */
  turn(position: number, path: string): SourceIdTurn {
    return new InputTurn(this, position, path);
  }

  /** Answered at once when it is the input's turn (most are: inputs are checked in order). */
  claim(position: number, path: string, sourceId: string | undefined): string | undefined | Promise<string | undefined> {
    if (this.nextTurn < position)
      return new Promise<void>((resolve) => this.waiting.set(position, resolve)).then(() => this.claimNow(position, path, sourceId));
    return this.claimNow(position, path, sourceId);
  }

  private claimNow(position: number, path: string, sourceId: string | undefined): string | undefined {
    try {
      return sourceId === undefined ? undefined : this.owners.claim(sourceId, path);
    } finally {
      this.open(position);
    }
  }

  private open(position: number): void {
    if (this.nextTurn !== position) return;
    this.nextTurn++;
    const wake = this.waiting.get(this.nextTurn);
    this.waiting.delete(this.nextTurn);
    wake?.();
  }
}

class InputTurn implements SourceIdTurn {
  constructor(
    private readonly claims: SourceIdClaims,
    private readonly position: number,
    private readonly path: string,
  ) {}

  claim(sourceId: string | undefined): string | undefined | Promise<string | undefined> {
    return this.claims.claim(this.position, this.path, sourceId);
  }
}

/** An input the run never took, or took and did not start: it stopped first. */
function notStarted(input: SpotInput, because: RunStopKind): SpotOutcome {
  return { ...blankOutcome(input, 'not-started'), ...notStartedParts(because) };
}

function totalsOf(spots: SpotOutcome[]): ImportOutcome['totals'] {
  const count = (status: SpotOutcome['status']) => spots.filter((spot) => spot.status === status).length;
  const sum = (pick: (gallery: SpotOutcome['galleries'][number]) => number) =>
    spots.reduce((all, spot) => all + spot.galleries.reduce((n, g) => n + pick(g), 0), 0);
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
function tell<T extends ImportProgress | SpotStep>(callback: ((event: T) => void) | undefined, event: T): void {
  try {
    callback?.(event);
  } catch {
    // Reporting is best effort; the outcome carries everything.
  }
}
