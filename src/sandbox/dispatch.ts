// One request's way through the sandbox: route, method, injected faults, bearer check, handler.
// Every failure ends here: a client mistake as its 4xx, anything else as a bare 500 without a
// stack trace, and a client that went away as nothing at all.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context';
import { handleControl } from './control';
import type { FaultOutcome } from './faults';
import type { SandboxRequestKind } from './types';
import { handleFileRead } from './files';
import { handleTile } from './tiles';
import { handleGetGallery, handleMediaOrder } from './galleries';
import { ClientGoneError, HttpError, sendErrors } from './http';
import { handleImport } from './importSpot';
import { SaveError } from './journal';
import { matchRoute, requestKind, type RouteMatch } from './routes';
import { handleTokenRequest, sendTokenError } from './tokenEndpoint';
import { requireBearer } from './tokens';
import { handleUpload } from './upload';

export async function dispatch(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.on('error', () => undefined); // resets and aborts show up as 'close'; they must not crash the process
  if (!req.url?.startsWith(CONTROL_PREFIX)) countInFlight(ctx, res);
  try {
    await route(ctx, req, res);
  } catch (error) {
    if (error instanceof ClientGoneError) {
      res.destroy();
    } else if (error instanceof HttpError) {
      sendErrors(req, res, error);
    } else if (error instanceof SaveError) {
      // Already reported (once per failed write, by the journal); the client must not take the
      // change as kept. 500 rather than 503: retrying cannot help until the disk is fixed.
      sendErrors(
        req,
        res,
        HttpError.of(500, 'not_saved', `The change could not be saved to disk (${causeOf(error)}); it was not acknowledged and may be lost on restart.`),
      );
    } else {
      ctx.onInternalError(error);
      if (res.headersSent) res.destroy();
      else sendErrors(req, res, HttpError.of(500, 'internal_error', 'The sandbox failed to handle this request.'));
    }
  }
}

const CONTROL_PREFIX = '/__sandbox/';

/** One more request in flight until its reply ends (or its connection closes). */
function countInFlight(ctx: SandboxContext, res: ServerResponse): void {
  const counters = ctx.counters;
  counters.maxRequestsInFlight = Math.max(counters.maxRequestsInFlight, ++counters.requestsInFlight);
  res.once('close', () => counters.requestsInFlight--);
}

async function route(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const pathname = pathOf(req.url ?? '/');
  const match = matchRoute(pathname);
  if (!match) throw HttpError.of(404, 'not_found', `There is no resource at ${pathname}.`);
  if (!match.methods.includes(method)) {
    throw HttpError.of(405, 'method_not_allowed', `${method} is not allowed on ${pathname}; use ${match.methods.join(' or ')}.`, undefined, {
      Allow: match.methods.join(', '),
    });
  }

  const kind = requestKind(match.name);
  if (kind && ctx.faults.appliesTo(kind)) {
    if (ctx.faults.latencyMs > 0) await delay(ctx.faults.latencyMs);
    const outcome = ctx.faults.draw();
    if (outcome) {
      ctx.counters.faultsInjected++;
      injectFault(ctx, req, res, outcome, kind);
      return;
    }
  }

  switch (match.name) {
    case 'token':
      return handleTokenRequest(ctx, req, res);
    case 'files':
      return handleFileRead(ctx, req, res, match.mediaId ?? '', match.filePath ?? '');
    case 'tiles':
      return handleTile(req, res, match.tile?.z ?? '', match.tile?.x ?? '', match.tile?.y ?? '');
    case 'counters':
    case 'faults':
    case 'expireTokens':
      return handleControl(ctx, match.name, req, res);
    default:
      return routeApi(ctx, req, res, match);
  }
}

async function routeApi(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, match: RouteMatch): Promise<void> {
  let user: string;
  try {
    user = requireBearer(req, ctx.tokens);
  } catch (error) {
    ctx.counters.unauthorized++;
    throw error;
  }
  const version = match.version ?? '';
  ctx.counters.apiVersions[version] = (ctx.counters.apiVersions[version] ?? 0) + 1;
  const galleryId = match.galleryId ?? '';
  switch (match.name) {
    case 'import':
      return handleImport(ctx, user, req, res, version);
    case 'gallery':
      return handleGetGallery(ctx, user, req, res, galleryId);
    case 'upload':
      return handleUpload(ctx, user, req, res, galleryId);
    case 'mediaOrder':
      return handleMediaOrder(ctx, user, req, res, galleryId);
    default:
      throw new Error(`route ${match.name} has no handler`);
  }
}

function injectFault(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  outcome: Exclude<FaultOutcome, undefined>,
  kind: SandboxRequestKind,
): void {
  if (outcome === 'drop') {
    // Cut the connection without a reply, as a crashed proxy or a network fault would.
    req.socket.destroy();
    return;
  }
  const seconds = ctx.faults.retryAfterSeconds;
  const [status, code, description, headers] =
    outcome === '429'
      ? [429, 'rate_limited', `Too many requests; retry after ${seconds} s.`, { 'Retry-After': String(Math.ceil(seconds)) }]
      : [503, 'unavailable', 'The service is temporarily unavailable (injected fault).', undefined];
  // Each route answers in its own error shape: the token endpoint's, or the API's errors list.
  if (kind === 'token') sendTokenError(req, res, status, code, description, headers);
  else sendErrors(req, res, HttpError.of(status, code, description, undefined, headers));
}

/** The path as sent, not normalised: a strict server does not guess what '//' or '..' meant. */
function pathOf(url: string): string {
  if (url.startsWith('/')) return url.split(/[?#]/)[0];
  try {
    return new URL(url).pathname; // absolute-form request target, as sent through a proxy
  } catch {
    throw HttpError.of(400, 'invalid_target', 'The request target is not a path.');
  }
}

function causeOf(error: SaveError): string {
  const cause = error.cause;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (cause instanceof Error ? cause.name : 'unknown error');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
