// The HTTP dispatcher is built from options the caller hands in, because a bundled undici does
// not see VS Code's proxy settings or the system certificates: the extension passes http.proxy,
// http.noProxy and http.proxyStrictSSL; a command-line user gets the usual proxy variables.
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { DEFAULT_IDLE_TIMEOUT_MS } from './requestDefaults';
import { withMembers } from '../objects/withMembers';

export interface HttpOptions {
  /** Proxy for both http and https requests; absent: HTTPS_PROXY / HTTP_PROXY from the environment. */
  proxyUrl?: string;
  /** Hosts that bypass the proxy (NO_PROXY syntax entries). Loopback always bypasses it. */
  noProxy?: string[];
  /** Check server certificates (default true). */
  strictSSL?: boolean;
  /** Extra CA certificates (PEM). */
  ca?: string[];
  /** Time to establish a connection (default 10 s). */
  connectTimeoutMs?: number;
  /** Time without any byte from the server before the request fails (default DEFAULT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
}

const LOOPBACK_NO_PROXY = ['localhost', '127.0.0.1', '::1'];

export function createDispatcher(options: HttpOptions = {}, env: NodeJS.ProcessEnv = process.env): Dispatcher {
  const tls = {
    rejectUnauthorized: options.strictSSL ?? true,
    ...(options.ca && options.ca.length > 0 ? { ca: options.ca } : {}),
  };
  const agentOptions = {
    connect: withMembers(tls, { timeout: options.connectTimeoutMs ?? 10_000 }),
    headersTimeout: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    bodyTimeout: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    keepAliveTimeout: 10_000,
    // HTTP/1.1 only, said rather than left to undici's default: the bundles leave its HTTP/2
    // client out (esbuild.js).
    allowH2: false,
  };
  const proxy = options.proxyUrl || env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy;
  if (!proxy) return new Agent(agentOptions);
  const noProxy = [...(options.noProxy ?? splitList(env.NO_PROXY ?? env.no_proxy)), ...LOOPBACK_NO_PROXY];
  return new EnvHttpProxyAgent(
    withMembers(agentOptions, {
      httpProxy: proxy,
      httpsProxy: proxy,
      noProxy: noProxy.join(','),
      requestTls: tls,
    }),
  );
}

let shared: Dispatcher | undefined;

/**
 * The dispatcher used when a caller passes none: built once, with this module's connect and idle
 * timeouts and the environment's proxy, rather than undici's global one (five-minute timeouts).
 */
export function defaultDispatcher(): Dispatcher {
  shared ??= createDispatcher(proxyOptionsFromEnv());
  return shared;
}

/** The proxy settings a command-line user expects, read from the environment. */
export function proxyOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): HttpOptions {
  return {
    proxyUrl: env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || undefined,
    noProxy: splitList(env.NO_PROXY ?? env.no_proxy),
    strictSSL: env.NODE_TLS_REJECT_UNAUTHORIZED !== '0',
  };
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}
