// The stores over globalState read a value, change it and write it back, and a Memento has no
// transactions: two such updates of one key running at once (a command, an import finishing, a
// test) would each write back what they read, and the later write would drop the earlier change
// (issue 20: a media template edit wrote back a profile list read before a profile was added).
// So every read-modify-write of a stored key runs through here, one after another: each starts
// once the one before it has written, and reads the value then.
//
// Queued per memento and key, not per store object: two stores over one globalState in a window
// (services built again by a test, say) wait for each other too. Another window runs in its own
// extension host, which nothing here can make wait; against it what helps is that an update reads
// the stored value and writes it with no await in between.
//
// And VS Code's storage sends every write of global state back to the extension host, which takes
// it as the value: the echo of one write that comes after the next one shows the older value for a
// moment. Global state is one object per extension, so the echo of a write of one key also brings
// every other key as it was then. So a store reads through readStored(), which knows the values
// this window has seen a key take (the value before its first write here, then its writes): a
// value that is one of them, but not the last write, is an echo, and the last is what is stored.
import type * as vscode from 'vscode';

const tails = new WeakMap<vscode.Memento, Map<string, Promise<void>>>();

/** How many of this window's writes of a key are known: echoes come within a few writes. */
const REMEMBERED_WRITES = 16;
/** Per memento and key, the JSON of the value before this window's first write, then of its last writes, oldest first. */
const writes = new WeakMap<vscode.Memento, Map<string, string[]>>();

/** The stored value: what the memento says, unless that is an echo of an earlier write of this window's. */
export function readStored<T>(memento: vscode.Memento, key: string): T | undefined {
  const value = memento.get<T>(key);
  const history = writes.get(memento)?.get(key);
  if (!history || history.length < 2) return value;
  const seen = JSON.stringify(value ?? null);
  const last = history[history.length - 1];
  // Another window's value (never written here) is taken as it is.
  return seen !== last && history.includes(seen) ? ((JSON.parse(last) as T | null) ?? undefined) : value;
}

/** Writes a value and remembers it as this window's (see readStored). */
export function writeStored(memento: vscode.Memento, key: string, value: unknown): Thenable<void> {
  const keys = writes.get(memento) ?? new Map<string, string[]>();
  writes.set(memento, keys);
  // The value before the first write here: an echo may bring it back too.
  const history = keys.get(key) ?? [JSON.stringify(memento.get(key) ?? null)];
  history.push(JSON.stringify(value ?? null));
  keys.set(key, history.slice(-REMEMBERED_WRITES));
  return memento.update(key, value);
}

/**
 * Runs `update` once every update queued before it for this memento and key has finished, well
 * or not. Its result or error is the caller's and does not stop the updates after it. Read the
 * stored value inside `update`, never before; an update must not wait for another of the same key
 * (it would wait for itself).
 */
export function serialUpdate<T>(memento: vscode.Memento, key: string, update: () => T | Promise<T>): Promise<T> {
  const queue = tails.get(memento) ?? new Map<string, Promise<void>>();
  tails.set(memento, queue);
  const result = (queue.get(key) ?? Promise.resolve()).then(update);
  const tail = result.then(ignore, ignore);
  queue.set(key, tail);
  // A key with nothing left to run is forgotten, so the map holds only pending updates.
  void tail.then(() => {
    if (queue.get(key) === tail) queue.delete(key);
  });
  return result;
}

function ignore(): void {}
