// Starts a real sandbox on an ephemeral loopback port and a core client wired to it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox/types';
import { TokenSource, defaultTokenUrl } from '../../../src/core/api/tokenSource';
import { ServiceClient } from '../../../src/core/api/serviceClient';
import { journalAccountOf, type ImportRunOptions } from '../../../src/core/import';
import { defaultJournalDir } from '../../../src/core/journal';
import { testAccounts } from './testAccounts';

export interface CoreSetup {
  sandbox: RunningSandbox;
  tokens: TokenSource;
  client: ServiceClient;
}

export async function startCore(options: SandboxOptions = {}, clientNow?: () => number): Promise<CoreSetup> {
  const sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT], ...options });
  const tokens = new TokenSource({
    tokenUrl: defaultTokenUrl(sandbox.baseUrl),
    clientId: DEMO_CLIENT.clientId,
    clientSecret: DEMO_CLIENT.clientSecret,
    now: clientNow,
  });
  // Short backoff steps keep fault-injection tests fast; the policy itself is tested separately.
  const client = new ServiceClient({ baseUrl: sandbox.baseUrl, tokens, retry: { baseMs: 5, maxMs: 100 } });
  return { sandbox, tokens, client };
}

export function spot(sourceId: string, extra: Record<string, unknown> = {}) {
  return { data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 48.2, longitude: 16.37, ...extra } } };
}

/** A test's own sandbox and empty folder; both are replaced before each test of the suite. */
export interface CoreWorkspace {
  setup: CoreSetup;
  dir: string;
  /** Options for runImport on this sandbox, its journal in the folder, with short retry steps. */
  workflowOptions(extra?: Partial<ImportRunOptions>): ImportRunOptions;
}

/**
 * Registers the suite's hooks: before each test a fresh sandbox (with these options) and its core
 * client, and a new temporary folder named from `prefix`; after it, both are gone.
 */
export function useCoreWorkspace(prefix: string, options: SandboxOptions = {}): CoreWorkspace {
  const workspace: CoreWorkspace = {
    setup: undefined as unknown as CoreSetup,
    dir: '',
    workflowOptions: (extra = {}) => ({
      client: workspace.setup.client,
      journal: {
        accounts: testAccounts,
        dir: defaultJournalDir(workspace.dir),
        account: journalAccountOf(workspace.setup.client.apiRoot, DEMO_CLIENT.clientId),
      },
      retry: { baseMs: 5, maxMs: 50 },
      ...extra,
    }),
  };
  beforeEach(async () => {
    workspace.setup = await startCore(options);
    workspace.dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await workspace.setup?.sandbox.close();
    if (workspace.dir) rmSync(workspace.dir, { recursive: true, force: true });
  });
  return workspace;
}
