// A short request (a small body out, a small JSON reply back) through undici's dispatcher API,
// the reply collected as bytes by the handler. undici.request wraps every reply in a Node stream
// and its promise machinery: for the thousands of imports of a bulk run that was about a quarter
// of a request's processor time (bench (a)). Uploads, which stream a file, keep undici.request.
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';
import type { RequestDeadline } from './deadline';
import { MAX_REPLY_BYTES, replyTooLarge, type RequestWords } from './readReply';

export interface ShortReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The whole reply, as UTF-8. */
  text: string;
}

export interface ShortRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Ends the request when the caller cancels or its deadline passes; the promise rejects with its reason. */
  deadline: RequestDeadline;
  /** Names the request in a message (a reply larger than MAX_REPLY_BYTES). */
  what: RequestWords;
}

/** A 401's body is not read: it only asks for a new token (as undici's dump() limit, 64 KiB). */
const REFUSAL_BODY_BYTES = 64 * 1024;

/**
 * Sends one request and reads its whole reply (any status). Rejects with what undici reports (a
 * refused or lost connection, an idle timeout), with the deadline's reason once it fires, or with
 * a MalformedReplyError when the reply passes MAX_REPLY_BYTES (the connection is then dropped).
 * A 401 resolves once its head is in, with no text, whatever becomes of its body: the caller
 * renews the token and sends the request once more, as it did when undici.request's body was
 * discarded.
 */
export function shortRequest(dispatcher: Dispatcher, url: string, request: ShortRequest): Promise<ShortReply> {
  return new ReplyCollector(request).send(dispatcher, url);
}

/**
 * One request's handler: its state and undici's callbacks in one object (a bulk import makes
 * thousands; a closure per callback was half a kilobyte more per request).
 */
class ReplyCollector implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private settled = false;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private resolve!: (reply: ShortReply) => void;
  private reject!: (error: unknown) => void;

  constructor(private readonly request: ShortRequest) {}

  /**
   * The request's work is here, in a method, not in the promise's executor: V8 keeps a closure's
   * optimized code only while an instance of it lives, and every request makes a new executor (see
   * EngineRun in import/runImport.ts). The executor left only keeps the promise's two functions.
   */
  send(dispatcher: Dispatcher, url: string): Promise<ShortReply> {
    const reply = new Promise<ShortReply>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    const { deadline } = this.request;
    if (deadline.aborted) {
      this.reject(deadline.reason);
      return reply;
    }
    // Fired while the request waits for a connection too: the promise rejects at once, and the
    // request is stopped as soon as undici starts it.
    deadline.onAbort(() => {
      this.fail(deadline.reason);
      this.controller?.abort(deadline.reason as Error);
    });
    try {
      const target = targetOf(url);
      dispatcher.dispatch(
        { origin: target.origin, path: target.path, method: this.request.method, headers: this.request.headers, body: this.request.body },
        this,
      );
    } catch (error) {
      // An address or an argument undici refuses (a header it cannot send): thrown before
      // anything went out, and the promise's rejection like every other failure.
      this.fail(error);
    }
    return reply;
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.request.deadline.onAbort(undefined);
    this.reject(error);
  }

  private succeed(text: string): void {
    if (this.settled) return;
    this.settled = true;
    this.request.deadline.onAbort(undefined);
    this.resolve({ status: this.status, headers: this.headers, text });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    const { deadline } = this.request;
    if (deadline.aborted) controller.abort(deadline.reason as Error);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.status === 401) {
      if (this.size <= REFUSAL_BODY_BYTES) return;
      this.succeed('');
      controller.abort(new Error("a refusal's body larger than 64 KiB"));
      return;
    }
    if (this.size > MAX_REPLY_BYTES) {
      const tooLarge = replyTooLarge(this.request.what, this.status);
      this.fail(tooLarge);
      controller.abort(tooLarge);
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.status === 401) return this.succeed('');
    const { chunks } = this;
    const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, this.size);
    // Without a leading byte-order mark, as undici's text() reads a body.
    const start = body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
    this.succeed(body.toString('utf8', start));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.status === 401) this.succeed('');
    else this.fail(error);
  }
}

let lastUrl: string | undefined;
let lastTarget: { origin: string; path: string } = { origin: '', path: '' };

/**
 * The origin and path of a URL, the last one kept: a bulk import sends thousands of requests to
 * one address, and parsing it each time was a URL object per request.
 */
function targetOf(url: string): { origin: string; path: string } {
  if (url !== lastUrl) {
    const parsed = new URL(url);
    lastTarget = { origin: parsed.origin, path: parsed.pathname + parsed.search };
    lastUrl = url;
  }
  return lastTarget;
}
