// A vscode.Memento kept in memory (and no credentials), for stores and services built by a test on
// their own state.
import * as vscode from 'vscode';
import type { CredentialStore } from '../../../src/platform/domain';

export class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return (this.values.has(key) ? this.values.get(key) : fallback) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
  /** Part of globalState's type; nothing is synced here. */
  setKeysForSync(): void {}
}

/** A CredentialStore with nothing in it, for a profile store built by a test on its own state. */
export const noCredentials: CredentialStore = {
  onDidChange: new vscode.EventEmitter<string>().event,
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};
