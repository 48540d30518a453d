// Client credentials live only in SecretStorage (the OS keychain, or the browser side in the web
// workbench), one entry per profile. secrets.onDidChange also fires for changes made in other
// windows, which is how every window's status and cached clients stay in step.
import * as vscode from 'vscode';
import type { Logger } from '../../platform/services';
import type { Credentials, CredentialStore } from '../../platform/domain';

const KEY_PREFIX = 'spotImport.credentials.';

export class SecretCredentialStore implements CredentialStore, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Logger,
  ) {
    this.subscription = secrets.onDidChange((event) => {
      if (event.key.startsWith(KEY_PREFIX)) this.changed.fire(event.key.slice(KEY_PREFIX.length));
    });
  }

  async get(profileId: string): Promise<Credentials | undefined> {
    const raw = await this.secrets.get(KEY_PREFIX + profileId);
    if (!raw) return undefined;
    try {
      const value = JSON.parse(raw) as Partial<Credentials>;
      if (typeof value.clientId !== 'string' || typeof value.clientSecret !== 'string') return undefined;
      // Whatever is read may end up in a request: make sure the log can never show it.
      this.log.addSecret(value.clientSecret);
      return { clientId: value.clientId, clientSecret: value.clientSecret };
    } catch {
      return undefined;
    }
  }

  async set(profileId: string, credentials: Credentials): Promise<void> {
    this.log.addSecret(credentials.clientSecret);
    await this.secrets.store(KEY_PREFIX + profileId, JSON.stringify(credentials));
    this.log.info('auth', `client credentials stored for profile ${profileId} (client id ${credentials.clientId})`);
  }

  async delete(profileId: string): Promise<void> {
    await this.secrets.delete(KEY_PREFIX + profileId);
    this.log.info('auth', `client credentials deleted for profile ${profileId}`);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
