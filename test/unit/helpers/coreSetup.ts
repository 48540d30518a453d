// Starts a real sandbox on an ephemeral loopback port and a core client wired to it.
import { startSandbox } from '../../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox/types';
import { TokenSource, defaultTokenUrl } from '../../../src/core/api/tokenSource';
import { ServiceClient } from '../../../src/core/api/serviceClient';

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
