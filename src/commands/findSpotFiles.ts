// Finds the spot documents under a folder for Import Folder: every *.spot.json file, and every
// other .json file whose data.type is "spots". Walks with workspace.fs so any folder works, in or
// out of the workspace; skips the folders that never hold spot documents.
import * as vscode from 'vscode';
import type { CoreModule } from '../platform/lazyCore';

const SKIPPED_FOLDERS = new Set(['node_modules']);
/** A folder walk stops here: importing more than this at once is a job for the command line. */
export const MAX_FILES = 5000;

export async function findSpotFiles(core: CoreModule, folder: vscode.Uri, signal?: AbortSignal): Promise<vscode.Uri[]> {
  const found: vscode.Uri[] = [];
  const pending: vscode.Uri[] = [folder];
  while (pending.length > 0 && found.length < MAX_FILES && !signal?.aborted) {
    const current = pending.shift()!;
    const entries = await vscode.workspace.fs.readDirectory(current);
    for (const [name, type] of entries.sort(([a], [b]) => a.localeCompare(b))) {
      const uri = vscode.Uri.joinPath(current, name);
      if (type & vscode.FileType.Directory) {
        if (!SKIPPED_FOLDERS.has(name) && !name.startsWith('.')) pending.push(uri);
      } else if (/\.spot\.json$/i.test(name)) {
        found.push(uri);
      } else if (/\.json$/i.test(name) && (await isSpotByContent(core, uri))) {
        found.push(uri);
      }
    }
  }
  return found;
}

async function isSpotByContent(core: CoreModule, uri: vscode.Uri): Promise<boolean> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > core.MAX_DOCUMENT_BYTES) return false;
    return core.looksLikeSpotDocument(uri.path, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
  } catch {
    return false;
  }
}

/** Bulk import items that read through workspace.fs (labels are what the summary shows). */
export function uriItems(core: CoreModule, uris: vscode.Uri[]): Array<{ label: string; uri: vscode.Uri; read(): Promise<string> }> {
  return uris.map((uri) => ({
    label: vscode.workspace.asRelativePath(uri, false),
    uri,
    read: async () => {
      // Never pull a huge file into memory: no spot document is anywhere near this size.
      const { size } = await vscode.workspace.fs.stat(uri);
      if (size > core.MAX_DOCUMENT_BYTES) throw new Error(`it is ${Math.round(size / 1048576)} MiB, far larger than a spot document`);
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    },
  }));
}
