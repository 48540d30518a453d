// What the HTTP client really did with the requests of one piece of work: whether the request was
// issued, whether its whole body went out to the connection, and whether an answer came. Read
// from undici's diagnostics channels (a documented, stable interface, shared by every undici in
// the process, the core's bundled one included), so the core need not report it. The requests
// are told apart by the async context of the work that made them.
//
// The upload run needs this for "interrupted, may have arrived": a file counts as handed over once
// the last byte of the multipart body went out, which progress callbacks cannot say for an
// empty file (it has no bytes to report) and say too early for others (bytes are counted as they
// are read into the body, ahead of the wire).
import { AsyncLocalStorage } from 'node:async_hooks';
import * as diagnostics from 'node:diagnostics_channel';

/** The fields of undici's request object this module reads. */
export interface WatchedRequest {
  method?: string;
  origin?: unknown;
  path?: string;
}

export interface RequestWatch {
  /** Some matching request was created (handed to a connection pool) within the work. */
  readonly issued: boolean;
  /** The latest matching request's body went out complete (undici's onRequestSent). */
  readonly bodySent: boolean;
  /** The status of the latest matching request's answer, once its head arrived. */
  readonly status: number | undefined;
  /** Runs `work`; requests it makes that match are watched (each new one resets the fields). */
  run<T>(work: () => Promise<T>): Promise<T>;
}

interface WatchState {
  matches: (request: WatchedRequest) => boolean;
  issued: boolean;
  bodySent: boolean;
  status: number | undefined;
  latest: object | undefined;
}

const context = new AsyncLocalStorage<WatchState>();
/** Request objects being watched, and the watch each belongs to. */
const watched = new WeakMap<object, WatchState>();
let subscribed = false;

function requestOf(message: unknown): object | undefined {
  const request = (message as { request?: unknown } | undefined)?.request;
  return request && typeof request === 'object' ? request : undefined;
}

function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  // Published synchronously while the request is dispatched, so still in the work's async context.
  diagnostics.subscribe('undici:request:create', (message) => {
    const state = context.getStore();
    const request = requestOf(message);
    if (!state || !request || !state.matches(request as WatchedRequest)) return;
    watched.set(request, state);
    state.issued = true;
    state.bodySent = false;
    state.status = undefined;
    state.latest = request;
  });
  diagnostics.subscribe('undici:request:bodySent', (message) => {
    const request = requestOf(message);
    const state = request && watched.get(request);
    if (state && state.latest === request) state.bodySent = true;
  });
  diagnostics.subscribe('undici:request:headers', (message) => {
    const request = requestOf(message);
    const state = request && watched.get(request);
    const status = (message as { response?: { statusCode?: unknown } }).response?.statusCode;
    if (state && state.latest === request && typeof status === 'number') state.status = status;
  });
}

export function watchRequests(matches: (request: WatchedRequest) => boolean): RequestWatch {
  subscribe();
  const state: WatchState = { matches, issued: false, bodySent: false, status: undefined, latest: undefined };
  return {
    get issued() {
      return state.issued;
    },
    get bodySent() {
      return state.bodySent;
    },
    get status() {
      return state.status;
    },
    run: (work) => context.run(state, work),
  };
}
