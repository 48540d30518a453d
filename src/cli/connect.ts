// From settings to a ready ServiceClient: the same TokenSource and ServiceClient the extension
// uses, over a dispatcher built from the usual proxy variables (HTTPS_PROXY, NO_PROXY); extra CA
// certificates come from NODE_EXTRA_CA_CERTS, which Node adds to the roots every TLS connection
// uses. With the base URL "sandbox" the built-in sandbox is started in this process first.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import {
  ServiceClient,
  ServiceError,
  TokenSource,
  createDispatcher,
  defaultTokenUrl,
  proxyOptionsFromEnv,
  serviceUrlOf,
  type ServiceClientOptions,
} from '../core';
import { startSandbox, DEMO_CLIENT, type RunningSandbox } from '../sandbox';
import { CliError } from './exit';
import { resolveCredentials } from './settings/credentials';
import { SANDBOX, type CliSettings } from './settings/resolveSettings';

export interface Connection {
  client: ServiceClient;
  tokens: TokenSource;
  baseUrl: string;
  tokenUrl: string;
  apiVersion: string;
  clientId: string;
  /** True when the built-in sandbox serves this run. */
  sandbox: boolean;
  /** What names this service across runs: its address as the client reaches it, or the built-in sandbox's data folder. */
  serviceKey: string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  secretFromStdin: boolean;
  env?: NodeJS.ProcessEnv;
  /** What the client asks for tokens (default: the token source itself): an import watches the first answer (FirstTokenGate). */
  clientTokens?: (tokens: TokenSource) => ServiceClientOptions['tokens'];
}

export async function connect(settings: CliSettings, options: ConnectOptions): Promise<Connection> {
  const env = options.env ?? process.env;
  if (!settings.baseUrl) {
    throw new CliError(
      'No service address: pass --base-url, set SPOT_BASE_URL, or add "baseUrl" to spot-import.json (or use --sandbox to try without an account).',
    );
  }
  let sandbox: RunningSandbox | undefined;
  let serviceKey: string | undefined;
  let baseUrl = settings.baseUrl.value;
  let tokenUrl = settings.tokenUrl?.value;
  let credentials;
  if (baseUrl === SANDBOX) {
    const dataDir = env.SPOT_SANDBOX_DATA?.trim() || join(tmpdir(), 'spot-import-sandbox');
    sandbox = await startBuiltInSandbox(dataDir);
    serviceKey = `sandbox:${dataDir}`;
    baseUrl = sandbox.baseUrl;
    tokenUrl = undefined;
    credentials = DEMO_CLIENT;
  } else {
    credentials = await resolveCredentials(settings, options.secretFromStdin);
  }
  const dispatcher: Dispatcher = createDispatcher(proxyOptionsFromEnv(env), env);
  const close = async () => {
    await dispatcher.close().catch(() => undefined);
    await sandbox?.close();
  };
  try {
    const resolvedTokenUrl = tokenUrl ?? defaultTokenUrl(baseUrl);
    const tokens = new TokenSource({ tokenUrl: resolvedTokenUrl, ...credentials, dispatcher });
    const client = new ServiceClient({
      baseUrl,
      apiVersion: settings.apiVersion.value,
      tokens: options.clientTokens ? options.clientTokens(tokens) : tokens,
      dispatcher,
      fileFieldName: settings.media.fileFieldName,
    });
    return {
      client,
      tokens,
      baseUrl,
      tokenUrl: resolvedTokenUrl,
      apiVersion: settings.apiVersion.value,
      clientId: credentials.clientId,
      sandbox: !!sandbox,
      // As the extension keys its journal: the address as the client reaches it, however it was
      // spelt (a trailing slash, capitals), so one service never gets two journals and two run locks.
      serviceKey: serviceKey ?? serviceUrlOf(client.apiRoot),
      close,
    };
  } catch (error) {
    await close();
    if (error instanceof ServiceError) throw new CliError(error.message);
    throw error;
  }
}

/**
 * The sandbox keeps its data between runs (in SPOT_SANDBOX_DATA, default a folder in the system's
 * temporary directory), so `import` and then `gallery` in two commands see the same galleries.
 */
async function startBuiltInSandbox(dataDir: string): Promise<RunningSandbox> {
  try {
    return await startSandbox({ port: 0, host: '127.0.0.1', clients: [DEMO_CLIENT], dataDir });
  } catch (error) {
    throw new CliError(`The built-in sandbox could not start: ${(error as Error).message}`);
  }
}
