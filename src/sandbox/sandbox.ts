// startSandbox: wires storage, tokens, faults and the HTTP server together, and takes them apart
// again on close() (connections cut, state written, temporary media removed).
import { createServer, type Server } from 'node:http';
import { promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { emptyCounters, type SandboxContext } from './context';
import { dispatch } from './dispatch';
import { FaultInjector, validateFaults } from './faults';
import { DEFAULT_FILE_FIELD_NAME } from '../core/api/fileField';
import { Journal } from './journal';
import { loadState } from './persistence';
import { isStoredMediaName } from './upload';
import { SandboxStore } from './store';
import { TokenStore } from './tokens';
import { DEMO_CLIENT, userOf, type RunningSandbox, type SandboxOptions } from './types';

// How long close() waits for handlers still running (e.g. an upload being cleaned up).
const CLOSE_GRACE_MS = 2000;
const DEFAULT_TIMEOUTS = { headersTimeoutMs: 30_000, idleTimeoutMs: 60_000, requestTimeoutMs: 600_000 };

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const settings = checkOptions(options);
  const onInternalError = options.onInternalError ?? (() => undefined);
  const storage = await openStorage(options.dataDir, onInternalError);
  const store = storage.store;
  const journal = storage.journal;
  const now = options.now ?? Date.now;

  const ctx: SandboxContext = {
    clients: settings.clients,
    tokens: new TokenStore(now, settings.tokenTtlSeconds),
    tokenTtlSeconds: settings.tokenTtlSeconds,
    omitExpiresIn: options.omitExpiresIn ?? false,
    store,
    faults: new FaultInjector(settings.faults),
    counters: emptyCounters(),
    mediaDir: storage.mediaDir,
    fileFieldName: options.fileFieldName ?? DEFAULT_FILE_FIELD_NAME,
    renameMedia: options.renameMedia ?? false,
    topics: options.topics,
    maxImportBytes: options.maxImportBytes ?? 1024 * 1024,
    durable: journal !== undefined,
    commit: journal ? (change, commitOptions) => journal.commit(change, commitOptions) : () => Promise.resolve(),
    settled: journal ? () => journal.settled() : () => Promise.resolve(),
    onInternalError,
  };

  const inFlight = new Set<Promise<void>>();
  const { headersTimeoutMs, idleTimeoutMs, requestTimeoutMs } = settings.timeouts;
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: Math.min(5_000, idleTimeoutMs || 5_000),
      // How often Node looks for connections past headersTimeout or requestTimeout.
      connectionsCheckingInterval: Math.max(25, Math.min(30_000, ...[headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0).map((ms) => ms / 4))),
    },
    (req, res) => {
      // dispatch answers every error itself; this catch only guards the process against a bug there.
      const handling = dispatch(ctx, req, res).catch((error: unknown) => {
        onInternalError(error);
        res.destroy();
      });
      inFlight.add(handling);
      void handling.finally(() => inFlight.delete(handling));
    },
  );
  // A socket on which nothing moves for idleTimeoutMs is destroyed (idle, or a stalled body).
  server.setTimeout(idleTimeoutMs);

  try {
    await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  } catch (error) {
    await journal?.close();
    if (storage.temporary) await removeTemporary(storage.mediaDir);
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const host = options.host ?? '127.0.0.1';

  let closing: Promise<void> | undefined;
  const close = async () => {
    const stopped = new Promise<void>((done) => server.close(() => done()));
    server.closeAllConnections();
    await stopped;
    const grace = new Promise((done) => setTimeout(done, CLOSE_GRACE_MS).unref());
    await Promise.race([Promise.allSettled([...inFlight]), grace]);
    await journal?.close();
    if (storage.temporary) await removeTemporary(storage.mediaDir);
  };

  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    counters: ctx.counters,
    mediaDir: storage.mediaDir,
    setFaults: (faults) => ctx.faults.set(faults),
    expireAllTokens: () => ctx.tokens.expireAll(),
    spotBySourceId: (sourceId, user = userOf(settings.clients[0])) => {
      const spot = store.spotBySourceId(user, sourceId);
      return spot && { id: spot.id, attributes: { ...spot.attributes } };
    },
    spotCount: () => store.spotCount,
    gallery: (id) => {
      const gallery = store.gallery(id);
      return gallery && { ...gallery, user: store.ownerOfGallery(id)!, mediaIds: store.mediaOf(id).map((item) => item.id) };
    },
    media: (id) => {
      const item = store.mediaById(id);
      return (
        item && {
          id: item.id,
          galleryId: item.galleryId,
          file: item.file,
          mimeType: item.mimeType,
          size: item.size,
          path: join(storage.mediaDir, item.storedName),
        }
      );
    },
    close: () => (closing ??= close()),
  };
}

function checkOptions(options: SandboxOptions) {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`port must be an integer from 0 to 65535, not ${port}`);
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 3600;
  if (!(tokenTtlSeconds > 0) || !Number.isFinite(tokenTtlSeconds)) throw new TypeError('tokenTtlSeconds must be a positive number');
  const clients = options.clients ?? [DEMO_CLIENT];
  if (clients.length === 0 || clients.some((client) => !client.clientId || !client.clientSecret || client.user === '')) {
    throw new TypeError('clients must list at least one client, each with a non-empty id and secret (and user, when given)');
  }
  const timeouts = { ...DEFAULT_TIMEOUTS };
  for (const key of Object.keys(DEFAULT_TIMEOUTS) as Array<keyof typeof DEFAULT_TIMEOUTS>) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`${key} must be a number of at least 0 (0: no timeout)`);
    timeouts[key] = value;
  }
  // Node refuses a headers timeout longer than a (set) request timeout.
  if (timeouts.requestTimeoutMs > 0 && timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) timeouts.headersTimeoutMs = timeouts.requestTimeoutMs;
  // Checked before any directory is made, so a bad setting leaves nothing behind.
  const faults = validateFaults(options.faults ?? {});
  return { tokenTtlSeconds, clients, faults, timeouts };
}

interface Storage {
  mediaDir: string;
  /** True when mediaDir is ours to delete on close (no data directory). */
  temporary: boolean;
  store: SandboxStore;
  /** Present with a data directory. */
  journal?: Journal;
}

async function openStorage(dataDir: string | undefined, onError: (error: unknown) => void): Promise<Storage> {
  if (!dataDir) {
    const mediaDir = await fs.mkdtemp(join(tmpdir(), 'spot-sandbox-'));
    removeAtExit(mediaDir);
    return { mediaDir, temporary: true, store: new SandboxStore() };
  }
  const root = resolve(dataDir);
  const mediaDir = join(root, 'media');
  await fs.mkdir(mediaDir, { recursive: true });
  const loaded = await loadState(root);
  const store = new SandboxStore(loaded.snapshot);
  for (const change of loaded.changes) store.apply(change);
  const journal = await Journal.open({ dataDir: root, mediaDir, generation: loaded.generation, snapshot: () => store.snapshot(), onError });
  // Files of the sandbox's own the state does not know were never acknowledged: partial uploads,
  // or uploads whose record a crash kept off the disk. Cleared, so the media directory matches the
  // state. Anything else is someone's (a --data folder chosen by mistake) and is left alone.
  const known = store.storedNames();
  for (const entry of await fs.readdir(mediaDir, { withFileTypes: true })) {
    if (entry.isFile() && !known.has(entry.name) && isStoredMediaName(entry.name)) await fs.rm(join(mediaDir, entry.name), { force: true });
  }
  return { mediaDir, temporary: false, store, journal };
}

// A sandbox whose host process exits without close() (an editor shutting down, a test runner
// with exit: true) still removes its temporary media. One listener serves every sandbox.
const temporaryDirs = new Set<string>();
function removeAtExit(dir: string): void {
  if (temporaryDirs.size === 0) process.once('exit', removeAll);
  temporaryDirs.add(dir);
}
function removeAll(): void {
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
  temporaryDirs.clear();
}
async function removeTemporary(dir: string): Promise<void> {
  temporaryDirs.delete(dir);
  if (temporaryDirs.size === 0) process.off('exit', removeAll);
  await fs.rm(dir, { recursive: true, force: true });
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
}
