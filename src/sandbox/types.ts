// The public shape of the local sandbox: what tests, the CLI and the extension use to run it.

export interface SandboxClient {
  clientId: string;
  clientSecret: string;
}

/** Faults are off unless set. Rates are shares of requests, 0..1, drawn independently per request. */
export interface SandboxFaults {
  /** Share of API requests answered 429 with Retry-After. */
  rate429?: number;
  /** Share of API requests answered 503. */
  rate503?: number;
  /** Share of API requests whose connection is destroyed before any reply. */
  rateDrop?: number;
  /** Retry-After value (seconds) sent with injected 429s. Default 0. */
  retryAfterSeconds?: number;
  /** Added latency for every request, in ms. */
  latencyMs?: number;
  /** Which requests faults apply to: by default import, gallery and upload (never the token). */
  appliesTo?: Array<'token' | 'import' | 'gallery' | 'upload'>;
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
}

export interface SandboxCounters {
  tokenRequests: number;
  imports: number;
  uploads: number;
  galleryReads: number;
  /** Requests answered by fault injection (429, 503 or dropped). */
  faultsInjected: number;
}

export interface RunningSandbox {
  /** http://127.0.0.1:PORT, the base URL and the token host alike. */
  readonly baseUrl: string;
  readonly port: number;
  readonly counters: SandboxCounters;
  /** Changes fault injection while running. */
  setFaults(faults: SandboxFaults): void;
  /** Makes every token issued so far invalid (as if they had expired). */
  expireAllTokens(): void;
  /** Spots by source_id, for assertions. */
  spotBySourceId(sourceId: string): { id: number; attributes: Record<string, unknown> } | undefined;
  spotCount(): number;
  close(): Promise<void>;
}

export const DEMO_CLIENT: SandboxClient = { clientId: 'topic_1_api', clientSecret: 'sandbox-secret' };
