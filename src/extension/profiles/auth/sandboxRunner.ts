// The built-in "Local" profile: the project's sandbox, started inside the extension host on first
// use so a new user can try every command offline. It gets its own random client credentials,
// made once and kept in SecretStorage like any other profile's. With SPOT_IMPORT_SANDBOX_URL set
// (tests, demos) an already running sandbox is used with its demo client instead.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { loadSandbox } from '../../platform/lazyCore';
import { requireTrust, sandboxIsOff } from '../../platform/workspaceTrust';
import { normalizeUrl } from './urlPolicy';
import type { Logger } from '../../platform/services';
import { SANDBOX_PROFILE_ID, type Credentials, type CredentialStore } from '../../platform/domain';
// A constant from a dependency-free file: bundling it costs nothing at activation.
import { DEMO_CLIENT, type RunningSandbox } from '../../../sandbox/types';

export interface SandboxEndpoint {
  baseUrl: string;
  credentials: Credentials;
}

export class SandboxRunner implements vscode.Disposable {
  private running?: Promise<{ sandbox?: RunningSandbox; endpoint: SandboxEndpoint }>;
  private knownBaseUrl = '';
  private topics?: { get(topicId: number): { fields: Readonly<Record<string, { type: string }>> } | undefined };

  constructor(
    private readonly credentials: CredentialStore,
    private readonly log: Logger,
    /** Where the sandbox keeps spots and media across restarts; undefined: memory only. */
    private readonly dataDir: string | undefined,
    private readonly externalUrl: string | undefined = process.env.SPOT_IMPORT_SANDBOX_URL || undefined,
  ) {
    if (externalUrl) this.knownBaseUrl = normalizeUrl(externalUrl);
  }

  /**
   * The workspace's topic definitions, looked up at each import: the sandbox then knows which
   * fields are galleries, as the real service knows its own topics.
   */
  useTopics(topics: NonNullable<SandboxRunner['topics']>): void {
    this.topics = topics;
  }

  /** The sandbox's address once known ('' before the first start). */
  baseUrl(): string {
    return this.knownBaseUrl;
  }

  /** Starts the sandbox unless it runs already; concurrent callers share one start. */
  ensure(): Promise<SandboxEndpoint> {
    this.running ??= this.start().catch((error: unknown) => {
      this.running = undefined;
      throw error;
    });
    return this.running.then((running) => running.endpoint);
  }

  /** Stops it (Sign Out of the sandbox: the next use starts it with new credentials). */
  async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    const sandbox = running && (await running.catch(() => undefined))?.sandbox;
    if (sandbox) {
      await sandbox.close();
      this.log.info('sandbox', 'local sandbox stopped');
    }
  }

  /** After Sign Out or a new secret: a running sandbox that knows other credentials is stopped. */
  async restartIfCredentialsChanged(): Promise<void> {
    if (this.externalUrl || !this.running) return;
    const running = await this.running.catch(() => undefined);
    const stored = await this.credentials.get(SANDBOX_PROFILE_ID);
    if (running && stored?.clientSecret !== running.endpoint.credentials.clientSecret) await this.stop();
  }

  /** Resolves once the sandbox is closed (and has said so in the log). */
  dispose(): Promise<void> {
    return this.stop();
  }

  private async start(): Promise<{ sandbox?: RunningSandbox; endpoint: SandboxEndpoint }> {
    if (this.externalUrl) {
      this.log.info('sandbox', `using the running sandbox at ${this.knownBaseUrl}`);
      return { endpoint: { baseUrl: this.knownBaseUrl, credentials: { ...DEMO_CLIENT } } };
    }
    requireTrust(sandboxIsOff);
    const credentials = await this.sandboxCredentials();
    const started = Date.now();
    const { startSandbox } = await loadSandbox();
    const sandbox = await startSandbox({
      port: 0,
      clients: [credentials],
      topics: { get: (topicId) => this.topics?.get(topicId) },
      ...(this.dataDir ? { dataDir: this.dataDir } : {}),
    });
    this.knownBaseUrl = sandbox.baseUrl;
    this.log.info('sandbox', `local sandbox listening on ${sandbox.baseUrl} (started in ${Date.now() - started} ms)`);
    return { sandbox, endpoint: { baseUrl: sandbox.baseUrl, credentials } };
  }

  private async sandboxCredentials(): Promise<Credentials> {
    const stored = await this.credentials.get(SANDBOX_PROFILE_ID);
    if (stored) return stored;
    const credentials = { clientId: `sandbox_${randomBytes(4).toString('hex')}_api`, clientSecret: randomBytes(24).toString('base64url') };
    await this.credentials.set(SANDBOX_PROFILE_ID, credentials);
    return credentials;
  }
}
