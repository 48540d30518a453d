// An import asks for a token when its first request needs one, not before it starts: a second run
// with nothing left to send asks the service for nothing. What the run reports before that stands
// (a row already imported, one that is invalid: neither depends on the credentials); what settles
// while the first token is asked for waits for the answer. Granted: it is reported, and everything
// after it as it comes. Not granted (refused credentials, an unreachable service, a 503 after the
// retries): the run is stopped at once (`signal`), so nothing is sent; what waited and what follows
// is dropped, and the command says "Nothing was sent." and why, as a check before the run did.
import { isCancellation, type TokenSource } from '../../core';
import type { Outcome } from '../output/records';

type ClientTokens = Pick<TokenSource, 'getToken' | 'invalidate' | 'redactor'>;

export class FirstTokenGate {
  private state: 'before' | 'asking' | 'granted' | 'refused' = 'before';
  private held: Array<() => void> = [];
  private readonly stop = new AbortController();
  /** Why the first token could not be had: the run sent nothing. */
  refusal?: unknown;
  /** Aborted when the first token could not be had: the run's stop signal, beside the user's. */
  readonly signal = this.stop.signal;

  /** `report` and `note` are the command's own: outcomes and notes go through the gate to them. */
  constructor(
    private readonly report: (outcome: Outcome) => void,
    private readonly writeNote: (line: string) => void,
  ) {}

  /** The token source a client is given: the gate watches its first answer. */
  over(tokens: TokenSource): ClientTokens {
    return {
      getToken: (signal) => this.first(tokens, signal),
      invalidate: (value) => tokens.invalidate(value),
      redactor: tokens.redactor,
    };
  }

  outcome(outcome: Outcome): void {
    this.pass(() => this.report(outcome));
  }

  note(line: string): void {
    this.pass(() => this.writeNote(line));
  }

  private pass(write: () => void): void {
    if (this.state === 'asking') this.held.push(write);
    else if (this.state !== 'refused') write();
  }

  private async first(tokens: TokenSource, signal: AbortSignal | undefined): Promise<Awaited<ReturnType<TokenSource['getToken']>>> {
    if (this.state !== 'before') return tokens.getToken(signal);
    this.state = 'asking';
    try {
      const token = await tokens.getToken(signal);
      this.settle('granted');
      return token;
    } catch (error) {
      // Interrupted while asking: what settled is real, and the run ends as interrupted.
      if (isCancellation(error)) this.settle('before');
      else {
        this.refusal = error;
        this.settle('refused');
        this.stop.abort(error);
      }
      throw error;
    }
  }

  private settle(state: 'before' | 'granted' | 'refused'): void {
    this.state = state;
    const held = this.held;
    this.held = [];
    if (state !== 'refused') for (const write of held) write();
  }
}
