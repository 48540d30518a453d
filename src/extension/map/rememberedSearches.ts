// The spot documents a map of folders found when it last opened in this window: a map opened
// again reads and draws them at once, then searches the folders again (a search of thousands of
// files takes about a second), and reads only what the search adds.
import type * as vscode from 'vscode';

/** Maps of this many different targets are remembered; the least recently opened is forgotten first. */
const REMEMBERED_TARGETS = 8;

const found = new Map<string, readonly vscode.Uri[]>();

/** What the last search of this target found, if it was searched in this window. */
export function rememberedSearch(key: string): readonly vscode.Uri[] | undefined {
  const uris = found.get(key);
  if (uris) {
    // Most recently used last: Map keeps insertion order.
    found.delete(key);
    found.set(key, uris);
  }
  return uris;
}

export function rememberSearch(key: string, uris: readonly vscode.Uri[]): void {
  found.delete(key);
  found.set(key, uris);
  while (found.size > REMEMBERED_TARGETS) found.delete(found.keys().next().value as string);
}
