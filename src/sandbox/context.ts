// Everything a request handler needs, built once per running sandbox and handed to each handler,
// so handlers stay plain functions without hidden module state (several sandboxes can run at once).
import type { GalleryFieldCatalog } from '../core/api/spotSchema';
import type { FaultInjector } from './faults';
import type { SandboxStore, StoreChange } from './store';
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
  /** The topic definitions the sandbox knows (see SandboxOptions.topics). */
  readonly topics?: GalleryFieldCatalog;
  readonly maxImportBytes: number;
  /** With a data directory: uploaded bytes are fsynced before they are acknowledged. */
  readonly durable: boolean;
  /**
   * Saves a change; resolves once it is on disk (at once without a data directory). Call it
   * right after the store made the change, before any await, and answer only after it resolved:
   * it rejects with a SaveError when the change could not be saved.
   */
  commit(change: StoreChange, options?: { syncMedia?: boolean }): Promise<void>;
  /** Resolves once every change committed so far is on disk (or failed): reads wait for it. */
  settled(): Promise<void>;
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
    fileReads: 0,
    apiVersions: {},
    requestsInFlight: 0,
    maxRequestsInFlight: 0,
  };
}
