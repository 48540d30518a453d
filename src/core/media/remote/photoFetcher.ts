// Photos a table names by their web address (KoBoToolbox's *_URL columns, iNaturalist's
// image_url), fetched into a cache under the run's .spot-import/ and then sent as a photo on disk
// is. A second run, or a run resumed after a kill, takes what the cache has without asking the
// server (with `refresh`, it asks whether the file changed: ETag, Last-Modified). The address must
// be https (http only on this machine); redirects are followed to a limit, those redirectPolicy.ts
// allows; the body is held to a size limit, and what it is is told from its first bytes, not from
// what the server says; the whole fetch has a deadline (a server that drips trips no idle timeout). A
// header the mapping asks for (a login) goes only to its host, never across a redirect to
// another; no message names its value or the address's query (where tokens also travel). Not
// downloadMedia (the Galleries view's, which holds a file in memory and asks before a large one):
// these go to disk, carry a login, and are kept for the next run.
import { createHash } from 'node:crypto';
import { createWriteStream, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { isCancellation, throwIfAborted } from '../../api/errors';
import { isFetchable, shownAddress } from './photoAddress';
import { refusedRedirect } from '../../api/redirectPolicy';
import { writeFileAtomic } from '../../files/atomicFile';
import { formatDecimal, l10n } from '../../text/l10n';
import { formatBytes } from '../../mediaFiles/downloadMedia';
import { defaultDispatcher } from '../../api/http';
import { AttemptDeadline, formatSeconds } from '../../api/deadline';
import { DEFAULT_DOWNLOAD_DEADLINE_MS } from '../../api/requestDefaults';
import { describeCertificateProblem } from '../../api/certificates';
import { DEFAULT_ACCEPTED_TYPES, isAcceptedType } from '../acceptedTypes';
import { sniffMediaType } from './sniffType';
import { partFileFor, removeStaleParts } from './partFiles';
import { withMembers } from '../../objects/withMembers';
import { DEFAULT_RETRY_POLICY, describeWait, isRetryableStatus, parseRetryAfter, retryDelayAfter, sleep, type RetryFailure, type RetryPolicy } from '../../api/retryPolicy';

/** A header sent with every fetch from `host` (a login the mapping asks for); its value is never shown. */
export interface FetchHeader {
  name: string;
  value: string;
  /** The one host it goes to; undefined: the host of each address (never one a redirect leads to). */
  host?: string;
  /** Where its value is set, for a message that asks to fix it: "the environment variable KOBO_TOKEN". */
  source?: string;
}

export interface PhotoFetcherOptions {
  /** Where fetched files are kept: the run's .spot-import/downloads. */
  cacheDir: string;
  headers?: readonly FetchHeader[];
  /**
   * The login headers for an address's host, asked for when a photo from it is first fetched (the
   * editor keeps them in its secret storage and asks once); they go to that host only.
   */
  loginFor?: (host: string) => Promise<readonly FetchHeader[]>;
  /** Ask the server whether a file the cache has changed (ETag, Last-Modified) rather than taking it as it is: once per address and run. */
  refresh?: boolean;
  /** The server refused a login this fetcher sent to `host` (401, 403): a kept login is wrong, and is dropped. */
  onLoginRefused?: (host: string) => void;
  /** A file larger than this is refused (default 256 MiB). */
  maxBytes?: number;
  acceptedTypes?: readonly string[];
  /** The run's proxy-aware dispatcher (default undici's global one). */
  dispatcher?: Dispatcher;
  /** Time for the reply's head, and between two pieces of its body (a server that drips), default 30 s. */
  idleTimeoutMs?: number;
  /**
   * Overall time for one attempt, its redirects and body included (default DEFAULT_DOWNLOAD_DEADLINE_MS):
   * a server that drips a byte at a time never trips the idle timeout.
   */
  deadlineMs?: number;
  /** When a busy server (429, 503) or a dropped connection is asked again: the service client's policy (default DEFAULT_RETRY_POLICY). */
  retry?: Partial<RetryPolicy>;
}

export interface FetchedPhoto {
  path: string;
  size: number;
  mtimeMs: number;
  type: string;
  /** What the run did for it: took the cache's copy, or downloaded it. */
  from: 'cache' | 'server';
}

interface CacheEntry {
  /** The address's hash (the address itself may carry a token in its query). */
  key: string;
  type: string;
  size: number;
  etag?: string;
  lastModified?: string;
}

type Reply = Awaited<ReturnType<typeof request>>;

/** Where a download goes: the cache's data and description files, and the copy it has (for a refresh). */
interface Target {
  address: string;
  dataPath: string;
  metaPath: string;
  cached: (FetchedPhoto & { entry: CacheEntry }) | undefined;
}

const MAX_REDIRECTS = 5;
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const SNIFF_BYTES = 16;

export class FetchError extends Error {
  /** A failure the retry policy may try again (a busy server, a dropped connection), and its reason for the message after the last attempt. */
  readonly retry?: { failure: RetryFailure; shown: string; reason: string };

  constructor(message: string, retry?: { failure: RetryFailure; shown: string; reason: string }) {
    super(message);
    if (retry) this.retry = retry;
  }
}

/** "… could not be fetched: <reason>", with what the retry policy needs to judge it. */
function failed(shown: string, reason: string, failure: RetryFailure): FetchError {
  return new FetchError(l10n.t('{0} could not be fetched: {1}', shown, reason), { failure, shown, reason });
}

export class PhotoFetcher {
  /** One download per address at a time: two rows naming one photo wait for the same. */
  private readonly pending = new Map<string, Promise<FetchedPhoto>>();
  /** Addresses asked for again in this run (refresh): asked once, then the cache answers. */
  private readonly refreshed = new Set<string>();
  /** Hosts that failed every attempt in this run, with why (see download). */
  private readonly failedHosts = new Map<string, string>();
  private created = false;
  /** The removal of the .part files earlier runs left (killed mid-download), once per fetcher: its first fetch waits for it. */
  private swept: Promise<void> | undefined;
  private readonly policy: RetryPolicy;

  constructor(private readonly options: PhotoFetcherOptions) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  }

  /** The photo at `address`, from the cache or the server; a FetchError says why it could not be had. */
  fetch(address: string, signal?: AbortSignal): Promise<FetchedPhoto> {
    let job = this.pending.get(address);
    if (!job) {
      job = this.fetchOnce(address, signal).finally(() => this.pending.delete(address));
      this.pending.set(address, job);
    }
    return job;
  }

  /** The address as messages show it (shownAddress). */
  static shown(address: string): string {
    return shownAddress(address);
  }

  private async fetchOnce(address: string, signal?: AbortSignal): Promise<FetchedPhoto> {
    await (this.swept ??= removeStaleParts(this.options.cacheDir, this.options.deadlineMs ?? DEFAULT_DOWNLOAD_DEADLINE_MS));
    const key = keyOf(address);
    const dataPath = join(this.options.cacheDir, key);
    const metaPath = `${dataPath}.json`;
    const cached = await readCache(dataPath, metaPath, key);
    if (cached && (!this.options.refresh || this.refreshed.has(address))) return cached;
    this.refreshed.add(address);
    throwIfAborted(signal);
    if (!this.created) {
      await fs.mkdir(this.options.cacheDir, { recursive: true });
      this.created = true;
    }
    return this.download(address, dataPath, metaPath, cached, signal);
  }

  private async download(address: string, dataPath: string, metaPath: string, cached: (FetchedPhoto & { entry: CacheEntry }) | undefined, signal?: AbortSignal): Promise<FetchedPhoto> {
    const shown = PhotoFetcher.shown(address);
    const url = parse(address, shown);
    // Asked before the clock starts: the editor may ask the person for the login.
    const logins = [...(this.options.headers ?? []), ...((await this.options.loginFor?.(url.host)) ?? []).map((header) => withMembers(header, { host: url.host }))];
    requireSendable(logins, url.host, shown);
    // A host that failed every attempt of one photo is not asked again in this run: with thousands
    // of photos on it, each would wait out the policy's backoff in turn.
    const earlier = this.failedHosts.get(url.host);
    if (earlier !== undefined) throw new FetchError(l10n.t('{0} was not fetched: {1} did not answer earlier in this run ({2}); try again later.', shown, url.host, earlier));
    // A busy server (429, 503) or a dropped connection is asked again as the service client asks
    // (retryPolicy.ts: Retry-After honoured, bounded); each attempt has its own deadline, and a
    // cancelled run ends the wait.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(url, logins, shown, { address, dataPath, metaPath, cached }, signal);
      } catch (error) {
        const retry = error instanceof FetchError ? error.retry : undefined;
        const wait = retry && !signal?.aborted ? retryDelayAfter(retry.failure, attempt, this.policy) : undefined;
        if (wait === undefined) {
          if (retry && !signal?.aborted) this.failedHosts.set(url.host, retry.reason);
          if (retry && attempt > 0) throw new FetchError(l10n.t('{0} could not be fetched after {1} attempts: {2}', shown, attempt + 1, retry.reason));
          throw error;
        }
        await sleep(wait, signal);
      }
    }
  }

  /** One attempt: the request and its redirects, within the deadline. */
  private async attempt(url: URL, logins: readonly FetchHeader[], shown: string, target: Target, signal?: AbortSignal): Promise<FetchedPhoto> {
    const deadline = new AttemptDeadline(signal, this.options.deadlineMs ?? DEFAULT_DOWNLOAD_DEADLINE_MS);
    try {
      return await this.follow(url, logins, shown, target, deadline.signal);
    } catch (error) {
      if (!deadline.timedOut) throw error;
      throw new FetchError(
        l10n.t(
          '{0} could not be fetched: it did not arrive whole within {1} s (the server sends it too slowly). Try again later: the next run fetches it again',
          shown,
          formatSeconds(deadline.deadlineMs!),
        ),
      );
    } finally {
      deadline.dispose();
    }
  }

  /** The request, and each redirect it is sent on, until the photo is in the cache; `signal` fires at the deadline too. */
  private async follow(
    start: URL,
    logins: readonly FetchHeader[],
    shown: string,
    { address, dataPath, metaPath, cached }: Target,
    signal: AbortSignal,
  ): Promise<FetchedPhoto> {
    let url = start;
    const firstHost = url.host;
    const idle = this.options.idleTimeoutMs ?? 30_000;
    for (let redirects = 0; ; redirects++) {
      requireSecure(url, shown);
      const headers: Record<string, string> = { accept: 'image/*, video/*;q=0.9, */*;q=0.1' };
      // A login goes to its own host only, and only while the address has not been sent elsewhere.
      for (const header of logins) if ((header.host ?? firstHost) === url.host && url.host === firstHost) headers[header.name.toLowerCase()] = header.value;
      if (cached && this.options.refresh) {
        if (cached.entry.etag) headers['if-none-match'] = cached.entry.etag;
        if (cached.entry.lastModified) headers['if-modified-since'] = cached.entry.lastModified;
      }
      let reply: Reply;
      try {
        // undici follows no redirect by itself: each hop is checked here.
        reply = await request(url, { method: 'GET', headers, signal, dispatcher: this.options.dispatcher ?? defaultDispatcher(), headersTimeout: idle, bodyTimeout: idle });
      } catch (error) {
        throw isCancellation(error) || signal.aborted ? error : failed(shown, reasonOf(error, idle, 'reply'), { networkError: error });
      }
      const status = reply.statusCode;
      if (status >= 300 && status < 400 && status !== 304) {
        await reply.body.dump().catch(() => undefined);
        const location = reply.headers.location;
        if (typeof location !== 'string') throw new FetchError(l10n.t('{0} could not be fetched: the server answered {1} without saying where to', shown, status));
        if (redirects >= MAX_REDIRECTS) throw new FetchError(l10n.t('{0} could not be fetched: more than {1} redirects', shown, MAX_REDIRECTS));
        const next = redirected(url, location, shown);
        const refusal = refusedRedirect(url, next);
        if (refusal) throw new FetchError(l10n.t('{0} could not be fetched: {1}', shown, refusal));
        url = next;
        continue;
      }
      if (status === 304 && cached) {
        await reply.body.dump().catch(() => undefined);
        return cached;
      }
      if (isRetryableStatus(status)) {
        await reply.body.dump().catch(() => undefined);
        const retryAfterMs = parseRetryAfter(reply.headers['retry-after']);
        throw failed(shown, busy(status, retryAfterMs), { status, retryAfterMs });
      }
      if (status !== 200) {
        await reply.body.dump().catch(() => undefined);
        const refused = status === 401 || status === 403;
        const sentLogin = logins.some((header) => (header.host ?? firstHost) === url.host && url.host === firstHost);
        if (refused && sentLogin) this.options.onLoginRefused?.(firstHost);
        const login = !refused
          ? ''
          : sentLogin
            ? ` ${l10n.t('(the login sent was refused: check its value)')}`
            : ` ${l10n.t('(it needs a login: the mapping\'s media "headers" give one)')}`;
        throw new FetchError(l10n.t('{0} could not be fetched: the server answered {1}', shown, status) + login);
      }
      return this.store(reply, address, shown, dataPath, metaPath, signal);
    }
  }

  /** The reply's body into the cache: held to the size limit, checked by its first bytes, then moved in place. */
  private async store(reply: Reply, address: string, shown: string, dataPath: string, metaPath: string, signal?: AbortSignal): Promise<FetchedPhoto> {
    const maxBytes = this.options.maxBytes ?? DEFAULT_MAX_BYTES;
    const declared = Number(reply.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      // Dropped unread: the connection is closed, and destroy's own AbortError is nobody's concern.
      reply.body.on('error', () => undefined).destroy();
      throw new FetchError(l10n.t('{0} could not be fetched: it is {1}, more than {2}', shown, formatBytes(declared), formatBytes(maxBytes)));
    }
    const temporary = partFileFor(dataPath);
    let size = 0;
    const head: Buffer[] = [];
    let headBytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new FetchError(l10n.t('{0} could not be fetched: it is more than {1}', shown, formatBytes(maxBytes))));
        if (headBytes < SNIFF_BYTES) {
          head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
          headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
        }
        done(null, chunk);
      },
    });
    try {
      await pipeline(reply.body, count, createWriteStream(temporary), { signal });
      const type = sniffMediaType(Buffer.concat(head));
      const accepted = this.options.acceptedTypes ?? DEFAULT_ACCEPTED_TYPES;
      if (!type || !isAcceptedType(type, accepted)) {
        const said = String(reply.headers['content-type'] ?? 'no type').split(';')[0];
        throw new FetchError(
          l10n.t('{0} is not a photo or video a gallery takes: its first bytes are no accepted type (the server called it {1})', shown, said),
        );
      }
      const entry: CacheEntry = { key: keyOf(address), type, size, ...cacheHeaders(reply.headers) };
      await fs.rename(temporary, dataPath);
      // The data first, then its description: a cache entry is whole once both are there.
      await writeFileAtomic(metaPath, JSON.stringify(entry), { syncFolder: false });
      const stats = await fs.stat(dataPath);
      return { path: dataPath, size, mtimeMs: stats.mtimeMs, type, from: 'server' };
    } catch (error) {
      await fs.rm(temporary, { force: true });
      if (error instanceof FetchError || isCancellation(error) || signal?.aborted) throw error;
      throw failed(shown, reasonOf(error, this.options.idleTimeoutMs ?? 30_000, 'body'), { networkError: error });
    }
  }
}

/** The cache's copy of `address`, when it has a whole one. */
async function readCache(dataPath: string, metaPath: string, key: string): Promise<(FetchedPhoto & { entry: CacheEntry }) | undefined> {
  try {
    const entry = JSON.parse(await fs.readFile(metaPath, 'utf8')) as CacheEntry;
    const stats = await fs.stat(dataPath);
    if (entry.key !== key || stats.size !== entry.size) return undefined;
    return { path: dataPath, size: stats.size, mtimeMs: stats.mtimeMs, type: entry.type, from: 'cache', entry };
  } catch {
    return undefined;
  }
}

function cacheHeaders(headers: Reply['headers']): Pick<CacheEntry, 'etag' | 'lastModified'> {
  const etag = headers.etag;
  const lastModified = headers['last-modified'];
  return { ...(typeof etag === 'string' ? { etag } : {}), ...(typeof lastModified === 'string' ? { lastModified } : {}) };
}

/** The cache's name for an address: its SHA-256. */
function keyOf(address: string): string {
  return createHash('sha256').update(address).digest('hex').slice(0, 40);
}

/** Where a redirect leads; one the server wrote that is no address is a FetchError, as a bad address is. */
function redirected(from: URL, location: string, shown: string): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new FetchError(l10n.t('{0} could not be fetched: the server redirected it to something that is no address', shown));
  }
}

function parse(address: string, shown: string): URL {
  try {
    return new URL(address);
  } catch {
    throw new FetchError(l10n.t('{0} is not a web address that can be fetched', shown));
  }
}

function requireSecure(url: URL, shown: string): void {
  if (isFetchable(url)) return;
  throw new FetchError(l10n.t('{0} is not fetched: photos are fetched over https only (http only from this machine)', shown));
}

/** Whether a header can carry `value`: no line break, no control character but the tab (HTTP's field-value, as undici checks it). */
export function isSendableHeaderValue(value: string): boolean {
  return !/[^\t\x20-\x7e\x80-\xff]/.test(value);
}

/**
 * A header value with a line break (or another control character but the tab) would end the header
 * early: undici refuses to send it, with nothing but its code. Said before anything is sent, with
 * where to fix it; never the value.
 */
function requireSendable(logins: readonly FetchHeader[], host: string, shown: string): void {
  const bad = logins.find((header) => !isSendableHeaderValue(header.value));
  if (!bad) return;
  const to = bad.host ?? host;
  throw new FetchError(
    bad.source
      ? l10n.t(
          '{0} could not be fetched: the login header {1} for {2} has a line break or another control character in its value; fix it in {3}',
          shown,
          bad.name,
          to,
          bad.source,
        )
      : l10n.t('{0} could not be fetched: the login header {1} for {2} has a line break or another control character in its value; fix its value', shown, bad.name, to),
  );
}

/** A 429 or 503: the server is busy or limits requests; when it asked to wait (Retry-After), until when. */
function busy(status: number, retryAfterMs: number | undefined): string {
  return retryAfterMs !== undefined && retryAfterMs > 0
    ? l10n.t('the server answered {0}: it is busy or limits how often it is asked. {1}', status, describeWait(retryAfterMs, Date.now() + retryAfterMs))
    : l10n.t('the server answered {0}: it is busy or limits how often it is asked; try again later', status);
}

/** Codes of a connection that went before its exchange was over: the server closed it, or it was cut on the way. */
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Why a fetch failed, in words that say what to do; `phase`: waiting for the reply's head, or reading its body. */
function reasonOf(error: unknown, idleMs: number, phase: 'reply' | 'body'): string {
  const code = (error as { code?: string }).code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return l10n.t('the server sent nothing for {0} s', formatDecimal(idleMs / 1000, 1));
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return l10n.t('its host is not known');
  if (code === 'ECONNREFUSED') return l10n.t('the connection was refused');
  if (code !== undefined && CLOSED_CODES.has(code))
    return phase === 'body'
      ? l10n.t('the server closed the connection before the photo was complete; try again later: the next run fetches it again')
      : l10n.t('the server closed the connection before it answered; try again later: the next run fetches it again');
  // The same words as the service client's for a certificate it cannot trust (certificates.ts).
  const certificate = code === undefined ? undefined : describeCertificateProblem(code);
  if (certificate) return certificate;
  // Anything else in the transport's own words, which say more than its code.
  return (error as Error).message || (code ?? String(error));
}
