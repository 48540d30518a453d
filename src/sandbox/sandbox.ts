// startSandbox: wires storage, tokens, faults and the HTTP server together, and takes them apart
// again on close() (connections cut, state written, temporary media removed).
import { createServer, type Server } from 'node:http';
import { promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { emptyCounters, type SandboxContext } from './context';
import { dispatch } from './dispatch';
import { FaultInjector, validateFaults } from './faults';
import { TEMP_PREFIX } from './multipart';
import { loadState, StateFile } from './persistence';
import { SandboxStore } from './store';
import { TokenStore } from './tokens';
import { DEMO_CLIENT, type RunningSandbox, type SandboxOptions } from './types';

const DEFAULT_FILE_FIELD = 'data[attributes][file]';
// How long close() waits for handlers still running (e.g. an upload being cleaned up).
const CLOSE_GRACE_MS = 2000;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const settings = checkOptions(options);
  const storage = await openStorage(options.dataDir);
  const store = new SandboxStore(storage.snapshot);
  const onInternalError = options.onInternalError ?? (() => undefined);
  const stateFile = storage.stateFile ? new StateFile(storage.stateFile, () => store.snapshot(), onInternalError) : undefined;
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
    fileFieldName: options.fileFieldName ?? DEFAULT_FILE_FIELD,
    renameMedia: options.renameMedia ?? false,
    maxImportBytes: options.maxImportBytes ?? 1024 * 1024,
    persist: () => stateFile?.requestSave(),
    onInternalError,
  };

  const inFlight = new Set<Promise<void>>();
  // requestTimeout 0: a large upload over a slow link may take longer than Node's 5 minute default.
  const server = createServer({ requestTimeout: 0, headersTimeout: 60_000, keepAliveTimeout: 5_000 }, (req, res) => {
    // dispatch answers every error itself; this catch only guards the process against a bug there.
    const handling = dispatch(ctx, req, res).catch((error: unknown) => {
      onInternalError(error);
      res.destroy();
    });
    inFlight.add(handling);
    void handling.finally(() => inFlight.delete(handling));
  });

  try {
    await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  } catch (error) {
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
    await stateFile?.flush();
    if (storage.temporary) await removeTemporary(storage.mediaDir);
  };

  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    counters: ctx.counters,
    mediaDir: storage.mediaDir,
    setFaults: (faults) => ctx.faults.set(faults),
    expireAllTokens: () => ctx.tokens.expireAll(),
    spotBySourceId: (sourceId) => {
      const spot = store.spotBySourceId(sourceId);
      return spot && { id: spot.id, attributes: { ...spot.attributes } };
    },
    spotCount: () => store.spotCount,
    gallery: (id) => {
      const gallery = store.gallery(id);
      return gallery && { ...gallery, mediaIds: store.mediaOf(id).map((item) => item.id) };
    },
    media: (id) => {
      const item = store.mediaById(id);
      return item && { id: item.id, galleryId: item.galleryId, file: item.file, mimeType: item.mimeType, size: item.size, path: join(storage.mediaDir, item.storedName) };
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
  if (clients.length === 0 || clients.some((client) => !client.clientId || !client.clientSecret)) {
    throw new TypeError('clients must list at least one client, each with a non-empty id and secret');
  }
  // Checked before any directory is made, so a bad setting leaves nothing behind.
  const faults = validateFaults(options.faults ?? {});
  return { tokenTtlSeconds, clients, faults };
}

interface Storage {
  mediaDir: string;
  /** True when mediaDir is ours to delete on close (no data directory). */
  temporary: boolean;
  stateFile?: string;
  snapshot?: Awaited<ReturnType<typeof loadState>>;
}

async function openStorage(dataDir: string | undefined): Promise<Storage> {
  if (!dataDir) {
    const mediaDir = await fs.mkdtemp(join(tmpdir(), 'spot-sandbox-'));
    removeAtExit(mediaDir);
    return { mediaDir, temporary: true };
  }
  const root = resolve(dataDir);
  const mediaDir = join(root, 'media');
  await fs.mkdir(mediaDir, { recursive: true });
  // Partial uploads left by a crash are never going to be finished: clear them.
  for (const name of await fs.readdir(mediaDir)) {
    if (name.startsWith(TEMP_PREFIX)) await fs.rm(join(mediaDir, name), { force: true });
  }
  const stateFile = join(root, 'state.json');
  return { mediaDir, temporary: false, stateFile, snapshot: await loadState(stateFile) };
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
