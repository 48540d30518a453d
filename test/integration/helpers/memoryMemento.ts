// A vscode.Memento and SecretStorage kept in memory (and no credentials), for stores and services
// built by a test on their own state.
import * as vscode from 'vscode';
import type { CredentialStore } from '../../../src/extension/platform/domain';

/**
 * When a write shows in get(): 'at once' is what VS Code's globalState does (it keeps the value in
 * memory before its promise settles); 'on settle' only when update's promise settles, a storage
 * round trip later, which Memento's contract allows as well. A store must lose nothing under either.
 */
export type MementoWrites = 'at once' | 'on settle' | 'with echoes';

export class MemoryMemento implements vscode.Memento {
  /**
   * 'with echoes': VS Code's storage sends each write of the extension's global state back to the
   * extension host, which takes it as the new value; a write's echo that comes after a later write
   * shows the older value until the later echo comes. Echoes wait here until deliverEchoes().
   */
  private readonly echoes: Array<[string, unknown]> = [];

  constructor(
    private readonly writes: MementoWrites = 'at once',
    /** Shared with anotherWindow()'s memento, as global state is shared by every window. */
    private readonly values = new Map<string, unknown>(),
  ) {}

  /** The same state as another window sees it: a separate memento object over the same values. */
  anotherWindow(): MemoryMemento {
    return new MemoryMemento(this.writes, this.values);
  }

  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, fallback?: T): T | undefined {
    return (this.values.has(key) ? this.values.get(key) : fallback) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    // VS Code keeps a JSON copy: a caller changing its object afterwards does not change the store.
    const copy: unknown = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
    if (this.writes === 'on settle') await new Promise((resolve) => setImmediate(resolve));
    if (copy === undefined) this.values.delete(key);
    else this.values.set(key, copy);
    if (this.writes === 'with echoes') this.echoes.push([key, copy]);
  }

  /** Delivers the oldest `count` echoes (all by default), each setting its value as VS Code's would. */
  deliverEchoes(count = this.echoes.length): void {
    for (const [key, value] of this.echoes.splice(0, count)) {
      if (value === undefined) this.values.delete(key);
      else this.values.set(key, JSON.parse(JSON.stringify(value)));
    }
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

export class MemorySecrets implements vscode.SecretStorage {
  private readonly values = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.changed.event;
  async keys(): Promise<string[]> {
    return [...this.values.keys()];
  }
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.changed.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.changed.fire({ key });
  }
}

/**
 * An ExtensionContext kept in memory, for the services built a second time by the test command
 * (spotImport.test.createServices). Its subscriptions are the test's to dispose.
 */
export function memoryContext(
  extensionMode: vscode.ExtensionMode,
  globalState: vscode.Memento = new MemoryMemento(),
): { context: vscode.ExtensionContext; subscriptions: { dispose(): unknown }[] } {
  const subscriptions: { dispose(): unknown }[] = [];
  const context = {
    subscriptions,
    secrets: new MemorySecrets(),
    globalState,
    workspaceState: new MemoryMemento(),
    // Not a file: the sandbox keeps its data in memory.
    globalStorageUri: vscode.Uri.parse('untitled:/spot-import-memory-context'),
    extensionMode,
  } as unknown as vscode.ExtensionContext;
  return { context, subscriptions };
}
