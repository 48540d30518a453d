// Everything a request handler needs, built once per running sandbox and handed to each handler,
// so handlers stay plain functions without hidden module state (several sandboxes can run at once).
import type { FaultInjector } from './faults';
import type { SandboxStore } from './store';
import type { TokenStore } from './tokens';
import type { SandboxClient, SandboxCounters } from './types';

export interface SandboxContext {
  readonly clients: readonly SandboxClient[];
  readonly tokens: TokenStore;
  readonly tokenTtlSeconds: number;
  readonly omitExpiresIn: boolean;
  readonly store: SandboxStore;
  readonly faults: FaultInjector;
  readonly counters: SandboxCounters;
  /** Directory for uploaded bytes (finished files and in-progress temporary files). */
  readonly mediaDir: string;
  readonly fileFieldName: string;
  /** Record uploads under generated names instead of the names sent. */
  readonly renameMedia: boolean;
  readonly maxImportBytes: number;
  /** Schedules writing the state file after a change (nothing happens without a data directory). */
  persist(): void;
  onInternalError(error: unknown): void;
}

export function emptyCounters(): SandboxCounters {
  return {
    tokenRequests: 0,
    imports: 0,
    uploads: 0,
    galleryReads: 0,
    faultsInjected: 0,
    tokensIssued: 0,
    unauthorized: 0,
    mediaOrders: 0,
    apiVersions: {},
  };
}
