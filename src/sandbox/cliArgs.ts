// Command-line flags of `npm run sandbox`, turned into SandboxOptions. Kept apart from cli.ts
// so the parsing can be tested without starting a process.
import { resolve } from 'node:path';
import { validateFaults } from './faults';
import { MAX_PENDING_GALLERIES } from './importSpot';
import { MAX_JSON_DEPTH } from '../core/documents/nesting';
import type { SandboxClient, SandboxFaults, SandboxOptions } from './types';

const DEFAULT_CLI_PORT = 8787;

export const USAGE = `Usage: npm run sandbox -- [options]

  --port N              port on 127.0.0.1 (default ${DEFAULT_CLI_PORT}; 0 picks a free one)
  --client ID:SECRET[:USER]
                        accepted client (repeatable; default the demo client topic_1_api:sandbox-secret).
                        USER is the account the client is bound to: clients of one user share spots,
                        galleries and media, other users' are not found (404). Without USER a client
                        belongs to the one default user. A SECRET containing ':' needs the USER part.
  --token-ttl SECONDS   lifetime of issued tokens (default 3600)
  --omit-expires-in     leave expires_in out of token replies
  --rename-media        store uploads under generated names, as the real service does
  --topics DIR          topic definitions (*.topic.json, e.g. spot-topics/): the sandbox then knows,
                        as the real service does, which topic fields are galleries; a null field of
                        another type is no pending gallery
  --data DIR            keep spots, galleries and media in DIR across restarts (default: memory only)
  --file-field NAME     multipart field the upload looks for (default data[attributes][file])
  --fail-429 RATE       share of API requests answered 429 (0..1)
  --fail-503 RATE       share of API requests answered 503 (0..1)
  --drop RATE           share of API requests whose connection is cut (0..1)
  --retry-after SECONDS Retry-After sent with injected 429s (default 0)
  --latency-ms MS       latency added to API requests
  --seed N              seed for the fault draws (repeatable runs)
  --help                show this help

Limits: an import body is at most 1 MiB (413), JSON bodies nest at most ${MAX_JSON_DEPTH} levels and one
import carries at most ${MAX_PENDING_GALLERIES} pending (null) gallery fields (422 with a pointer).
With --data a change is answered only once it is on disk; one that cannot be saved is answered
500 not_saved.`;

/** A mistake on the command line: the CLI prints it with the usage and exits 2. */
export class UsageError extends Error {}

export interface CliConfig {
  help: boolean;
  options: SandboxOptions & { port: number };
  /** --topics: the folder of topic definitions, read by the CLI before it starts. */
  topicsDir?: string;
}

const VALUE_FLAGS = new Set([
  '--port',
  '--client',
  '--token-ttl',
  '--data',
  '--file-field',
  '--topics',
  '--fail-429',
  '--fail-503',
  '--drop',
  '--retry-after',
  '--latency-ms',
  '--seed',
]);
const SWITCHES = new Set(['--help', '-h', '--omit-expires-in', '--rename-media']);

export function parseSandboxArgs(argv: readonly string[], cwd = process.cwd()): CliConfig {
  const options: CliConfig['options'] = { port: DEFAULT_CLI_PORT };
  const clients: SandboxClient[] = [];
  const faults: SandboxFaults = {};
  let help = false;
  let topicsDir: string | undefined;

  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = equals > 0 ? arg.slice(0, equals) : arg;
    if (SWITCHES.has(flag)) {
      if (equals > 0) throw new UsageError(`${flag} takes no value`);
      if (flag === '--omit-expires-in') options.omitExpiresIn = true;
      else if (flag === '--rename-media') options.renameMedia = true;
      else help = true;
      continue;
    }
    // Not the value given with =: it may be a secret (a mistyped --client=ID:SECRET).
    if (!VALUE_FLAGS.has(flag)) throw new UsageError(`unknown option "${equals > 0 ? `${flag}=…` : arg}"`);
    let value: string | undefined;
    if (equals > 0) value = arg.slice(equals + 1);
    else value = argv[++index];
    if (value === undefined || (equals < 0 && value.startsWith('--'))) throw new UsageError(`${flag} needs a value`);

    switch (flag) {
      case '--port':
        options.port = integer(flag, value, 0, 65535);
        break;
      case '--client':
        clients.push(client(value));
        break;
      case '--token-ttl':
        options.tokenTtlSeconds = number(flag, value, 0, Infinity, false);
        break;
      case '--data':
        options.dataDir = resolve(cwd, value);
        break;
      case '--topics':
        topicsDir = resolve(cwd, value);
        break;
      case '--file-field':
        if (!value) throw new UsageError('--file-field needs a non-empty name');
        options.fileFieldName = value;
        break;
      case '--fail-429':
        faults.rate429 = number(flag, value, 0, 1);
        break;
      case '--fail-503':
        faults.rate503 = number(flag, value, 0, 1);
        break;
      case '--drop':
        faults.rateDrop = number(flag, value, 0, 1);
        break;
      case '--retry-after':
        faults.retryAfterSeconds = number(flag, value, 0, Infinity);
        break;
      case '--latency-ms':
        faults.latencyMs = number(flag, value, 0, Infinity);
        break;
      case '--seed':
        faults.seed = integer(flag, value, -(2 ** 31), 2 ** 32 - 1);
        break;
    }
  }

  if (clients.length > 0) options.clients = clients;
  try {
    options.faults = validateFaults(faults);
  } catch (error) {
    throw new UsageError((error as Error).message.replace('rate429 + rate503 + rateDrop', '--fail-429 + --fail-503 + --drop'));
  }
  return { help, options, ...(topicsDir ? { topicsDir } : {}) };
}

function number(flag: string, text: string, min: number, max: number, zeroAllowed = true): number {
  const value = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isFinite(value) || value < min || value > max || (!zeroAllowed && value === 0)) {
    const range = max === Infinity ? `${zeroAllowed ? 'at least' : 'greater than'} ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be a number ${range}, not "${text}"`);
  }
  return value;
}

function integer(flag: string, text: string, min: number, max: number): number {
  const value = /^-?\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

/** ID up to the first colon; with more colons, USER after the last one and SECRET in between. */
function client(text: string): SandboxClient {
  const first = text.indexOf(':');
  const last = text.lastIndexOf(':');
  const id = text.slice(0, first);
  const secret = first === last ? text.slice(first + 1) : text.slice(first + 1, last);
  const user = first === last ? undefined : text.slice(last + 1);
  if (first <= 0 || !secret || user === '') throw new UsageError(`--client must be ID:SECRET[:USER], not "${text}"`);
  return user === undefined ? { clientId: id, clientSecret: secret } : { clientId: id, clientSecret: secret, user };
}
