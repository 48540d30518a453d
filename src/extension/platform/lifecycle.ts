// Who disposes what, and in which order. VS Code disposes context.subscriptions in array order,
// which would close the log before the services that still write to it while they stop; so the
// extension owns its disposables in one store that disposes in reverse (what was made first, the
// log, goes last), as vscode-pull-request-github's src/common/lifecycle.ts does. Unlike that one,
// this store waits for disposables that stop asynchronously (the local sandbox closes its server),
// so deactivate() can return once everything, the log last, is done.

/** Anything with dispose(); a returned promise is waited for. */
export interface Disposable {
  dispose(): unknown;
}

export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposing?: Promise<void>;

  /** Owns the items; added after disposal, they are disposed at once. */
  push(...items: Disposable[]): void {
    for (const item of items) this.add(item);
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposing) void settle(item);
    else this.items.push(item);
    return item;
  }

  get isDisposed(): boolean {
    return this.disposing !== undefined;
  }

  /** Disposes the newest first, each one finished (awaited) before the next; a failure does not stop the rest. */
  dispose(): Promise<void> {
    this.disposing ??= (async () => {
      while (this.items.length > 0) await settle(this.items.pop()!);
    })();
    return this.disposing;
  }
}

async function settle(item: Disposable): Promise<void> {
  try {
    await item.dispose();
  } catch {
    // Shutting down: nothing left to tell (the log may be the one that failed).
  }
}
