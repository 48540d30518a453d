// One TokenSource and ServiceClient per profile, built on first use and kept until the profile's
// credentials, the profile itself or a setting that shapes requests changes. The token source
// registers the secret and every token it obtains with the redactor the log and every
// notification use (sharedRedactor), and the outcome of each token request (issued / refused)
// becomes the profile's status.
import * as vscode from 'vscode';
import { DisposableStore } from '../../platform/lifecycle';
import type { Dispatcher } from 'undici';
import type * as Core from '../../../core';
import { ActionableError, noActiveProfileError, noteProfileOf } from '../../platform/errors';
import { httpOptionsFromVsCode } from '../../platform/httpOptions';
import { loadCore, noteCoreRequestDone } from '../../platform/lazyCore';
import { sharedRedactor } from '../../platform/redact';
import type { ClientProvider, Logger } from '../../platform/services';
import { SANDBOX_PROFILE_ID, profileLabel, type CredentialStore, type Profile } from '../../platform/domain';
import { affectsClients, readSettings } from '../../platform/settings';
import type { GlobalStateProfileStore } from './profileStore';
import type { SandboxRunner } from './sandboxRunner';
import { setCredentialsAction } from '../../platform/errorActions';

interface Entry {
  /** The credentials the client was built with, to tell a real change from an echo. */
  credentials: { clientId: string; clientSecret: string };
  client: Core.ServiceClient;
  tokens: Core.TokenSource;
  dispatcher: Dispatcher;
}

export class CachingClientProvider implements ClientProvider, vscode.Disposable {
  private readonly cache = new Map<string, Promise<Entry>>();
  /**
   * Credential changes being looked at, per profile. SecretStorage's change event reaches this
   * window before the store() that caused it returns (the main thread sends it ahead of the
   * reply), so a client asked for after new credentials were saved waits here and never gets
   * the client built with the old ones.
   */
  private readonly checks = new Map<string, Promise<void>>();
  /** What it listens to, disposed with it (newest first). */
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly profiles: GlobalStateProfileStore,
    private readonly credentials: CredentialStore,
    private readonly sandbox: SandboxRunner,
    private readonly log: Logger,
  ) {
    this.disposables.push(
      credentials.onDidChange((profileId) => {
        const check: Promise<void> = this.credentialsChanged(profileId)
          .catch((error: unknown) => log.warn('auth', `could not follow the credential change of profile ${profileId}`, error))
          .finally(() => {
            if (this.checks.get(profileId) === check) this.checks.delete(profileId);
          });
        this.checks.set(profileId, check);
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsClients(event)) this.forget();
      }),
      profiles.onDidChange(() => {
        for (const id of this.cache.keys()) if (!profiles.get(id)) this.forget(id);
      }),
    );
  }

  async client(): Promise<{ profile: Profile; client: Core.ServiceClient }> {
    const profile = this.requireActive();
    const { client } = await this.entry(profile);
    return { profile: this.current(profile), client };
  }

  async clientFor(profileId: string): Promise<{ profile: Profile; client: Core.ServiceClient }> {
    const profile = this.profiles.get(profileId);
    if (!profile) throw new ActionableError(vscode.l10n.t('The profile this run started with was removed; nothing more is sent.'), []);
    const { client } = await this.entry(profile);
    return { profile: this.current(profile), client };
  }

  async freshToken(signal?: AbortSignal): Promise<{ profile: Profile; token: Core.AccessToken }> {
    const profile = this.requireActive();
    const { tokens } = await this.entry(profile);
    tokens.clear();
    return { profile: this.current(profile), token: await tokens.getToken(signal) };
  }

  /** The profile as it is now: the sandbox profile's address is known only once the client started it. */
  private current(profile: Profile): Profile {
    return this.profiles.get(profile.id) ?? profile;
  }

  forget(profileId?: string): void {
    for (const [id, entry] of [...this.cache]) {
      if (profileId !== undefined && id !== profileId) continue;
      this.cache.delete(id);
      entry
        .then((built) => {
          built.tokens.clear();
          return built.dispatcher.close();
        })
        .catch(() => undefined);
    }
  }

  /**
   * Rebuilds a profile's client only when its stored credentials really differ from the ones it
   * was built with: the sandbox's first start stores fresh credentials, and that change event must
   * not close the client that was just handed out.
   */
  private async credentialsChanged(profileId: string): Promise<void> {
    const cached = this.cache.get(profileId);
    const built = cached && (await cached.catch(() => undefined));
    const stored = await this.credentials.get(profileId);
    const same = built && stored && stored.clientId === built.credentials.clientId && stored.clientSecret === built.credentials.clientSecret;
    if (!same && this.cache.get(profileId) === cached) this.forget(profileId);
    if (profileId === SANDBOX_PROFILE_ID) await this.sandbox.restartIfCredentialsChanged();
  }

  dispose(): void {
    this.forget();
    void this.disposables.dispose();
  }

  private requireActive(): Profile {
    const profile = this.profiles.active();
    if (profile) return profile;
    throw noActiveProfileError();
  }

  private async entry(profile: Profile): Promise<Entry> {
    await this.checks.get(profile.id);
    let entry = this.cache.get(profile.id);
    if (!entry) {
      entry = this.build(profile);
      this.cache.set(profile.id, entry);
      // A failed build (no credentials yet) must not stick.
      entry.catch(() => {
        if (this.cache.get(profile.id) === entry) this.cache.delete(profile.id);
      });
    }
    return entry;
  }

  private async build(profile: Profile): Promise<Entry> {
    const endpoint =
      profile.kind === 'sandbox' ? await this.sandbox.ensure() : { baseUrl: profile.baseUrl, credentials: await this.credentials.get(profile.id) };
    if (!endpoint.credentials) {
      throw new ActionableError(vscode.l10n.t('Profile "{0}" has no client credentials yet.', profileLabel(profile)), [setCredentialsAction(profile.id)]);
    }
    const core = await loadCore();
    const settings = readSettings();
    const dispatcher = core.createDispatcher(await httpOptionsFromVsCode(core, settings));
    const Tokens = observedTokenSource(core, profile.id, (rejected) => this.profiles.markRejected(profile.id, rejected));
    const tokens = new Tokens({
      tokenUrl: profile.tokenUrl ?? core.defaultTokenUrl(endpoint.baseUrl),
      clientId: endpoint.credentials.clientId,
      clientSecret: endpoint.credentials.clientSecret,
      assumedLifetimeSeconds: settings.assumedTokenLifetimeSeconds,
      deadlineMs: settings.tokenTimeoutSeconds * 1000,
      redactor: sharedRedactor,
      dispatcher,
    });
    const client = new core.ServiceClient({
      baseUrl: endpoint.baseUrl,
      apiVersion: profile.apiVersion,
      tokens,
      dispatcher,
      retry: { maxRetries: settings.maxRetries },
      fileFieldName: settings.fileFieldName,
      deadlineMs: settings.requestDeadlineSeconds * 1000,
      // Whose request failed, for the buttons of its message (a run may use another profile than the active one).
      onFailure: (error) => noteProfileOf(error, profile.id),
    });
    this.log.info('auth', `client ready for profile ${profileLabel(profile)} at ${endpoint.baseUrl} (API ${profile.apiVersion})`);
    return { credentials: { ...endpoint.credentials }, client, tokens, dispatcher };
  }
}

/**
 * A TokenSource that reports whether the credentials were accepted: the one place a profile is
 * marked rejected, since only here is it known whose credentials the token endpoint refused (a
 * run may use a profile other than the active one). The refusal is noted on the error too.
 */
function observedTokenSource(core: typeof Core, profileId: string, setRejected: (rejected: boolean) => void): typeof Core.TokenSource {
  return class ObservedTokenSource extends core.TokenSource {
    override async getToken(signal?: AbortSignal): Promise<Core.AccessToken> {
      try {
        const token = await super.getToken(signal);
        setRejected(false);
        noteCoreRequestDone();
        return token;
      } catch (error) {
        if (error instanceof core.AuthenticationError) {
          setRejected(true);
          noteProfileOf(error, profileId);
        }
        throw error;
      }
    }
  };
}
