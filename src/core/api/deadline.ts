// An overall deadline for one attempt of a request. undici's own timeouts are idle timeouts (no
// byte for so long): a server that drips its reply a byte at a time never trips them, so every
// attempt that must end gets a signal that fires at its deadline, or when the caller cancels.
// Most deadlines run from the attempt's start; an upload's runs from the end of its body, or from
// its reply's head when the server answers first (see start), since sending a large file on a slow
// line may rightly take long, its reply not.
import { formatDecimal } from '../text/l10n';

export class AttemptDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  private expired = false;
  private disposed = false;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  /**
   * `deadlineMs` undefined: no deadline, only the caller's cancellation. `startsLater`: the clock
   * starts only when start() is called.
   */
  constructor(
    private readonly caller: AbortSignal | undefined,
    readonly deadlineMs: number | undefined,
    options: { startsLater?: boolean } = {},
  ) {
    this.signal = this.controller.signal;
    if (caller?.aborted) this.controller.abort(caller.reason);
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    if (!options.startsLater) this.start();
  }

  /** Starts the clock, if it has not started yet (and the attempt is not over). */
  start(): void {
    const deadlineMs = this.deadlineMs;
    if (deadlineMs === undefined || this.timer || this.disposed || this.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new DOMException(`No complete reply within ${deadlineMs} ms.`, 'TimeoutError'));
    }, deadlineMs);
  }

  /** True when the attempt ended because its deadline passed (not because the caller cancelled). */
  get timedOut(): boolean {
    return this.expired && !this.caller?.aborted;
  }

  /** Call when the attempt is over, whatever its outcome: stops the timer and the listener. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

/** "0.8" ("0,8" in German), "30": seconds for a message. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? String(seconds) : formatDecimal(seconds, 1);
}

/**
 * The deadline of one attempt of a short request (an import, a gallery read, an ordering), made
 * for the thousands of such requests of a bulk import: it calls one listener, the request's (set
 * by shortRequest.ts), so an attempt costs one timer, not an AbortController and EventTarget
 * listeners on two signals. The caller's signal gets one listener for all its attempts (see
 * callerAttempts). Same outcome as an AttemptDeadline: `reason` is the caller's when it cancels,
 * a TimeoutError at the deadline.
 */
export class RequestDeadline {
  aborted = false;
  reason: unknown = undefined;
  private listener?: () => void;
  private timer?: NodeJS.Timeout;
  private expired = false;
  private readonly attempts?: Set<RequestDeadline>;

  constructor(
    private readonly caller: AbortSignal | undefined,
    readonly deadlineMs: number,
  ) {
    if (caller?.aborted) {
      this.aborted = true;
      this.reason = caller.reason;
      return;
    }
    if (caller) {
      this.attempts = callerAttempts(caller);
      this.attempts.add(this);
    }
    this.timer = setTimeout(() => {
      this.expired = true;
      this.abort(new DOMException(`No complete reply within ${deadlineMs} ms.`, 'TimeoutError'));
    }, deadlineMs);
  }

  /** True when the attempt ended because its deadline passed (not because the caller cancelled). */
  get timedOut(): boolean {
    return this.expired && !this.caller?.aborted;
  }

  /** Call when the attempt is over, whatever its outcome: stops the timer. */
  dispose(): void {
    clearTimeout(this.timer);
    this.attempts?.delete(this);
    this.listener = undefined;
  }

  /** The one listener told when the attempt is aborted (undefined: none any more). */
  onAbort(listener: (() => void) | undefined): void {
    this.listener = listener;
  }

  /** The caller cancelled, or the deadline passed. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    clearTimeout(this.timer);
    this.attempts?.delete(this);
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}

/** The attempts running under each caller's signal, aborted together by one listener on it. */
const underSignal = new WeakMap<AbortSignal, Set<RequestDeadline>>();

function callerAttempts(signal: AbortSignal): Set<RequestDeadline> {
  let attempts = underSignal.get(signal);
  if (!attempts) {
    const running = new Set<RequestDeadline>();
    signal.addEventListener(
      'abort',
      () => {
        for (const attempt of [...running]) attempt.abort(signal.reason);
      },
      { once: true },
    );
    underSignal.set(signal, running);
    attempts = running;
  }
  return attempts;
}
