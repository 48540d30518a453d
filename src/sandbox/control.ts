// The /__sandbox endpoints: what out-of-process tests (the VS Code integration tests, scripts)
// use to read counters and steer faults. They need no token and never get faults themselves.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context';
import { validateFaults } from './faults';
import { decodeUtf8, HttpError, mediaTypeOf, PLAIN_JSON, readBody, sendEmpty, sendJson } from './http';
import { parseJsonBody } from './json';
import type { RouteName } from './routes';

export async function handleControl(ctx: SandboxContext, route: RouteName, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (route === 'counters') {
    sendJson(req, res, 200, ctx.counters, PLAIN_JSON);
  } else if (route === 'expireTokens') {
    ctx.tokens.expireAll();
    sendEmpty(req, res, 204);
  } else if (req.method === 'POST') {
    ctx.faults.set(await readFaults(req));
    sendJson(req, res, 200, ctx.faults.current, PLAIN_JSON);
  } else {
    sendJson(req, res, 200, ctx.faults.current, PLAIN_JSON);
  }
}

async function readFaults(req: IncomingMessage) {
  if (mediaTypeOf(req) !== 'application/json') {
    throw HttpError.of(415, 'unsupported_media_type', 'Send the faults as JSON (Content-Type: application/json).');
  }
  const value = parseJsonBody(decodeUtf8(await readBody(req, 64 * 1024)) ?? '');
  try {
    return validateFaults(value);
  } catch (error) {
    throw HttpError.of(400, 'invalid_faults', (error as Error).message, { pointer: '' });
  }
}
