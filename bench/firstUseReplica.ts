// The first network use of the activation bench, in plain Node outside VS Code, phase by phase:
// read dist/core.js, compile it (no code cache), run its top level, make a dispatcher and a token
// source, and one token request to a warm loopback server (a process of its own). Run as a
// child process (a fresh V8 each time) by bench/activation.ts, which prints the medians beside the
// extension host's figures: what a machine adds inside VS Code, and which phase another machine
// is slow in. Node's built-in modules are loaded first, as they are in an extension host.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { Script } from 'node:vm';

/** The phases in order, each in ms, and the whole (from reading to the token). */
export interface ReplicaPhases {
  read: number;
  compile: number;
  topLevel: number;
  dispatcher: number;
  request: number;
  total: number;
}

export const REPLICA_PHASES = ['read', 'compile', 'topLevel', 'dispatcher', 'request', 'total'] as const;

interface ReplicaCore {
  createDispatcher(): { close(): Promise<void> };
  TokenSource: new (options: { tokenUrl: string; clientId: string; clientSecret: string; dispatcher: unknown }) => { getToken(): Promise<unknown> };
}

const BUILT_INS = [
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'tls',
  'stream',
  'zlib',
  'crypto',
  'worker_threads',
  'diagnostics_channel',
  'util',
  'events',
  'url',
  'async_hooks',
];

async function replica(bundle: string, tokenUrl: string): Promise<ReplicaPhases> {
  for (const name of BUILT_INS) require(`node:${name}`);
  const phases: Partial<ReplicaPhases> = {};
  const started = performance.now();
  let last = started;
  const mark = (phase: Exclude<keyof ReplicaPhases, 'total'>) => {
    const now = performance.now();
    phases[phase] = now - last;
    last = now;
  };
  const source = fs.readFileSync(bundle, 'utf8');
  mark('read');
  const script = new Script(Module.wrap(source), { filename: bundle });
  mark('compile');
  const module = new Module(bundle, undefined);
  module.filename = bundle;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(bundle));
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, (id: string) => module.require(id), module, bundle, path.dirname(bundle));
  mark('topLevel');
  const core = module.exports as ReplicaCore;
  const dispatcher = core.createDispatcher();
  const tokens = new core.TokenSource({ tokenUrl, clientId: 'bench', clientSecret: 'bench-secret', dispatcher });
  mark('dispatcher');
  await tokens.getToken();
  mark('request');
  const total = performance.now() - started;
  await dispatcher.close();
  return { ...(phases as Omit<ReplicaPhases, 'total'>), total };
}

// As a child process: node firstUseReplica.js <dist/core.js> <token URL>; prints the phases as JSON.
if (require.main === module) {
  const [bundle, tokenUrl] = process.argv.slice(2);
  replica(path.resolve(bundle), tokenUrl).then(
    (phases) => process.stdout.write(`${JSON.stringify(phases)}\n`),
    (error: unknown) => {
      process.stderr.write(`firstUseReplica: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
