// The public shape of the local sandbox: what tests, the CLI and the extension use to run it.
import type { GalleryFieldCatalog } from '../core/api/spotSchema';

export interface SandboxClient {
  clientId: string;
  clientSecret: string;
  /**
   * The user account the client is bound to (interface, Authentication 2). Spots, galleries and
   * media belong to the user of the client that created them; clients of the same user share
   * them, clients of other users get 404. Default: DEFAULT_USER, shared by all clients without one.
   */
  user?: string;
}

/** The user of every client configured without one. */
export const DEFAULT_USER = 'default';

export function userOf(client: SandboxClient): string {
  return client.user ?? DEFAULT_USER;
}

/** The kinds of request fault injection and latency can apply to. */
export type SandboxRequestKind = 'token' | 'import' | 'gallery' | 'upload';

/**
 * Faults are off unless set. Rates are shares of requests, 0..1; each request draws once, so the
 * three rates together must not exceed 1 (a request gets at most one fault).
 */
export interface SandboxFaults {
  /** Share of API requests answered 429 with Retry-After. */
  rate429?: number;
  /** Share of API requests answered 503. */
  rate503?: number;
  /** Share of API requests whose connection is destroyed before any reply. */
  rateDrop?: number;
  /** Retry-After value (seconds) sent with injected 429s. Default 0. */
  retryAfterSeconds?: number;
  /** Added latency in ms, for the same requests the faults apply to. */
  latencyMs?: number;
  /**
   * Which requests faults and latency apply to: by default import, gallery and upload (never the
   * token). Gallery media ordering counts as 'gallery'. The /__sandbox endpoints never get faults.
   */
  appliesTo?: SandboxRequestKind[];
  /** Seed for the fault draws, so a test sees the same sequence every run. Random when absent. */
  seed?: number;
}

export interface SandboxOptions {
  /** 0 picks a free port. Default 8787 for the CLI, 0 for tests. */
  port?: number;
  /** Always 127.0.0.1 unless given. */
  host?: string;
  /** Accepted clients. Default: the demo client (see DEMO_CLIENT). */
  clients?: SandboxClient[];
  /** Lifetime of issued tokens in seconds. Default 3600. */
  tokenTtlSeconds?: number;
  /** Leave expires_in out of token replies (to test the assumed lifetime). */
  omitExpiresIn?: boolean;
  /** Directory that keeps spots, galleries and media across restarts. Memory only without it. */
  dataDir?: string;
  faults?: SandboxFaults;
  /** Clock, for expiry tests. Default Date.now. */
  now?: () => number;
  /** Multipart field the upload endpoint looks for first. Default 'data[attributes][file]'. */
  fileFieldName?: string;
  /**
   * Store every upload under a generated opaque name (as the real service does, e.g.
   * 000001/2026/11/22/<hash>.jpg), so a gallery's `file` no longer equals the uploaded name.
   */
  renameMedia?: boolean;
  /**
   * The topics' field definitions, as the real service knows its own: a field typed as a gallery
   * is one whatever its value, and null in a field of another type is no pending gallery. Without
   * them (the default) a fld_ member set to null is a pending gallery, as the interface describes.
   */
  topics?: GalleryFieldCatalog;
  /** Largest accepted import body in bytes (413 above). Default 1 MiB. */
  maxImportBytes?: number;
  /** A connection must send its request headers within this many ms (408 and closed). Default 30000. */
  headersTimeoutMs?: number;
  /**
   * A connection on which no byte moves either way for this many ms is closed: an idle one, or
   * one whose body stalled. Default 60000.
   */
  idleTimeoutMs?: number;
  /** A whole request, body included, must arrive within this many ms (408). 0: no limit. Default 600000. */
  requestTimeoutMs?: number;
  /** Told about genuine internal errors (answered 500 without details). Default: ignored. */
  onInternalError?: (error: unknown) => void;
}

/**
 * What the sandbox has handled. A request answered by fault injection counts only in
 * faultsInjected. tokenRequests counts every other request to a token path, good or bad;
 * imports, uploads, galleryReads and mediaOrders count requests that passed the bearer check,
 * whatever the handler then answered (a 422 import counts as an import); requests refused for a
 * missing, unknown or expired bearer count in unauthorized instead.
 */
export interface SandboxCounters {
  tokenRequests: number;
  imports: number;
  uploads: number;
  galleryReads: number;
  /** Requests answered by fault injection (429, 503 or dropped). */
  faultsInjected: number;
  /** Token requests that were answered with a token. */
  tokensIssued: number;
  /** API requests refused 401 for their bearer token. */
  unauthorized: number;
  /** Media order requests that passed the bearer check. */
  mediaOrders: number;
  /** Requests to the files route (GET/HEAD /files/…), found or not. */
  fileReads: number;
  /** API requests that passed the bearer check, by the version in their path (e.g. 'v2.4'). */
  apiVersions: Record<string, number>;
  /**
   * Requests being handled now (from their arrival to the end of their reply, any added latency
   * included), and the most there have been at once: how many requests a client keeps in flight.
   * The /__sandbox endpoints are not counted.
   */
  requestsInFlight: number;
  maxRequestsInFlight: number;
}

/** A stored media item, for assertions. */
export interface SandboxMediaInfo {
  id: number;
  galleryId: number;
  file: string;
  mimeType: string;
  size: number;
  /** Where the bytes are on disk. */
  path: string;
}

/** A stored gallery, for assertions. */
export interface SandboxGalleryInfo {
  id: number;
  spotId: number;
  /** The user owning the gallery's spot. */
  user: string;
  field: string;
  type: number;
  state: number;
  mediaIds: number[];
}

export interface RunningSandbox {
  /** http://127.0.0.1:PORT, the base URL and the token host alike. */
  readonly baseUrl: string;
  readonly port: number;
  /** Live counters (the same object, updated as requests arrive). */
  readonly counters: SandboxCounters;
  /** Where uploaded bytes go: DIR/media with a data directory, a temporary directory otherwise. */
  readonly mediaDir: string;
  /** Replaces (does not merge) fault injection while running. Throws on invalid values. */
  setFaults(faults: SandboxFaults): void;
  /** Makes every token issued so far invalid (as if they had expired). */
  expireAllTokens(): void;
  /** Spots by source_id and owner, for assertions. Default user: that of the first client. */
  spotBySourceId(sourceId: string, user?: string): { id: number; attributes: Record<string, unknown> } | undefined;
  spotCount(): number;
  gallery(id: number): SandboxGalleryInfo | undefined;
  media(id: number): SandboxMediaInfo | undefined;
  /**
   * Stops listening, cuts open connections, writes pending state (with --data: state.json alone,
   * holding everything) and removes temporary files.
   */
  close(): Promise<void>;
}

/**
 * The address of a stored media file, as a profile's media URL template: the sandbox serves its
 * files like the platform's public files host (no token), at /files/{media id}/{file name as the
 * gallery lists it}. The id keeps two galleries' "photo.jpg" apart when uploads keep their names.
 */
export function sandboxMediaUrlTemplate(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${SANDBOX_FILES_PREFIX}/{id}/{file}`;
}

export const SANDBOX_FILES_PREFIX = '/files';

export const DEMO_CLIENT: SandboxClient = { clientId: 'topic_1_api', clientSecret: 'sandbox-secret' };
