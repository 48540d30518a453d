// An overall deadline for one attempt of a request. undici's own timeouts are idle timeouts (no
// byte for so long): a server that drips its reply a byte at a time never trips them, so every
// attempt that must end gets a signal that fires at its deadline, or when the caller cancels.
// Most deadlines run from the attempt's start; an upload's runs from the end of its body (see
// start), since sending a large file on a slow line may rightly take long, its reply not.

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

/** "0.8", "30": seconds for a message. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}
