// Real HTTP to an in-process sandbox for the sandbox's own tests: fetch for ordinary calls, and a
// raw node:http request (a fresh connection each time) where connection behaviour matters.
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import { resolve as resolvePath } from 'node:path';
import { startSandbox } from '../../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox, type SandboxClient, type SandboxOptions } from '../../../src/sandbox/types';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function tokenForm(client: SandboxClient = DEMO_CLIENT, grantType = 'client_credentials'): URLSearchParams {
  return new URLSearchParams({ grant_type: grantType, client_id: client.clientId, client_secret: client.clientSecret });
}

export function requestToken(baseUrl: string, client: SandboxClient = DEMO_CLIENT, path = '/api/v2/access_token'): Promise<Reply> {
  return send(`${baseUrl}${path}`, { method: 'POST', body: tokenForm(client) });
}

export async function newToken(baseUrl: string, client: SandboxClient = DEMO_CLIENT): Promise<string> {
  const reply = await requestToken(baseUrl, client);
  if (reply.status !== 200) throw new Error(`token request failed: ${reply.status} ${reply.text}`);
  return reply.json.access_token as string;
}

export function spotDocument(sourceId: string, extra: Record<string, unknown> = {}) {
  return { data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 48.2, longitude: 16.37, ...extra } } };
}

export function importSpot(baseUrl: string, token: string, document: unknown, version = 'v2.4'): Promise<Reply> {
  return send(`${baseUrl}/api/${version}/spots/import`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/vnd.api+json' },
    body: JSON.stringify(document),
  });
}

export function getGallery(baseUrl: string, token: string, id: number | string, version = 'v2.4'): Promise<Reply> {
  return send(`${baseUrl}/api/${version}/galleries/${id}`, { headers: { Authorization: `Bearer ${token}` } });
}

export function uploadForm(form: FormData, baseUrl: string, token: string, galleryId: number | string): Promise<Reply> {
  return send(`${baseUrl}/api/v2.4/galleries/${galleryId}/media`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
}

/** Imports a spot with one pending gallery field and returns that gallery's id. */
export async function pendingGallery(baseUrl: string, token: string, sourceId: string, field = 'fld_1_9'): Promise<number> {
  const reply = await importSpot(baseUrl, token, spotDocument(sourceId, { state: 2, [field]: null }));
  if (reply.status !== 200) throw new Error(`import failed: ${reply.status} ${reply.text}`);
  return reply.json.data.attributes[field] as number;
}

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request on its own connection; rejects when the connection is cut without a reply. */
export function rawRequest(url: string, options: { method?: string; headers?: http.OutgoingHttpHeaders; body?: string | Buffer } = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Starts a sandbox before the suite's tests and closes it after; read it through the getter. */
export function useSandbox(options: SandboxOptions = {}): { readonly sandbox: RunningSandbox; readonly token: string } {
  let sandbox: RunningSandbox | undefined;
  let token = '';
  before(async () => {
    sandbox = await startSandbox({ port: 0, ...options });
    token = await newToken(sandbox.baseUrl, options.clients?.[0]);
  });
  after(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  return {
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox is not running');
      return sandbox;
    },
    get token() {
      return token;
    },
  };
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface SandboxChild {
  child: ChildProcess;
  /** The ready line the CLI printed. */
  line: string;
  /** The URL from the ready line. */
  baseUrl: string;
  stdout: () => string;
  stderr: () => string;
}

// The compiled CLI (out/test/unit/helpers -> out/src/sandbox).
export const SANDBOX_CLI = resolvePath(__dirname, '../../../src/sandbox/cli.js');

/**
 * Spawns the compiled sandbox CLI (or `command` with the CLI's path appended to `args`, e.g. a
 * shell that sets limits first) and resolves with its ready line.
 */
export async function startSandboxCli(args: string[], command?: { file: string; args: string[] }): Promise<SandboxChild> {
  const child = command
    ? spawn(command.file, [...command.args, SANDBOX_CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [SANDBOX_CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ready line; stderr: ${stderr}`));
    }, 15_000);
    const check = () => {
      if (stdout.includes('\n')) {
        clearTimeout(timer);
        resolvePromise(stdout.slice(0, stdout.indexOf('\n')));
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ready; stderr: ${stderr}`));
    });
  });
  const baseUrl = /(http:\/\/\S+)/.exec(line)?.[1] ?? '';
  return { child, line, baseUrl, stdout: () => stdout, stderr: () => stderr };
}
