// Finds the spot documents under a folder for Import Folder: every *.spot.json file, and every
// other .json file whose data.type is "spots". The file search (workspace.findFiles) honours
// files.exclude, skips node_modules and dot-folders, follows symbolic links without looping
// (ripgrep detects cycles), passes over folders it cannot read instead of failing, and works for
// folders outside the workspace too. Reading each candidate goes through the core's fileItems,
// so the size guard is the core's; a file that cannot be read is logged and passed over.
import * as vscode from 'vscode';
import type { CoreModule } from '../platform/lazyCore';
import type { Logger } from '../platform/services';
import { SPOT_FILE, walkSpotFiles } from './walkSpotFiles';

/** Import Folder stops collecting here: importing more than this at once is a job for the command line. */
const MAX_FILES = 5000;
/** JSON files looked at, at most (most JSON files in a big tree are not spot documents). */
const MAX_CANDIDATES = 50_000;

/** The order of localeCompare, from one collator: tens of thousands of paths sort many times faster. */
const byPath = new Intl.Collator();
/** Folders the search passes over besides files.exclude: node_modules, and those named with a leading dot (walkSpotFiles keeps the same rule). */
const SKIPPED_FOLDER = 'node_modules';
const EXCLUDED = `{**/${SKIPPED_FOLDER}/**,**/.*/**}`;
/** The guess gives up past this many folder entries (a tree this big is left to the search). */
const GUESS_MAX_ENTRIES = 300_000;
/** A files.exclude pattern the guess can follow exactly: a name anywhere, with * and ? in it at most (as all of VS Code's defaults are). */
const EXCLUDED_NAME = /^\*\*\/([^{}[\]/\\!]+)$/;

/** A name of such a pattern as a regular expression: * and ? stand for any characters of one name. */
function namePattern(name: string): RegExp {
  // Every other character of a regular expression's syntax stands for itself (EXCLUDED_NAME lets none of {}[] through, but this does not rely on it).
  const escaped = name.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

export interface FoundSpotFiles {
  /** Sorted by path. */
  uris: vscode.Uri[];
  /** True when the search stopped at its limit of documents or JSON files: there may be more. */
  truncated: boolean;
}

export interface SearchLimits {
  /** Spot documents at most (default MAX_FILES). */
  files: number;
  /** JSON files looked at, at most (default MAX_CANDIDATES). */
  candidates: number;
}

export const DEFAULT_LIMITS: SearchLimits = { files: MAX_FILES, candidates: MAX_CANDIDATES };

export interface FindOptions {
  signal?: AbortSignal;
  /** Called as documents are recognised, with the number found so far. */
  onFound?: (count: number) => void;
  log?: Logger;
  /** Lower limits (tests). */
  limits?: SearchLimits;
}

export async function findSpotFiles(core: CoreModule, folder: vscode.Uri, options: FindOptions = {}): Promise<FoundSpotFiles> {
  if (folder.scheme !== 'file') throw new Error(vscode.l10n.t('Import Folder reads folders on disk; {0} is not one.', folder.toString(true)));
  options.signal?.throwIfAborted();
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = () => cancel.cancel();
  options.signal?.addEventListener('abort', onAbort);
  try {
    const limits = options.limits ?? DEFAULT_LIMITS;
    const candidates = await vscode.workspace.findFiles(
      new vscode.RelativePattern(folder, '**/*.{json,JSON,Json}'),
      EXCLUDED,
      limits.candidates + 1,
      cancel.token,
    );
    options.signal?.throwIfAborted();
    let truncated = candidates.length > limits.candidates;
    const sorted = candidates.slice(0, limits.candidates).sort((a, b) => byPath.compare(a.path, b.path));
    const uris: vscode.Uri[] = [];
    for (const uri of sorted) {
      options.signal?.throwIfAborted();
      if (uris.length === limits.files) {
        truncated = true;
        break;
      }
      if (SPOT_FILE.test(uri.path) || (await isSpotByContent(core, uri, options.log))) {
        uris.push(uri);
        options.onFound?.(uris.length);
      }
    }
    return { uris, truncated };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}

/**
 * What findSpotFiles will most likely find under a folder, in milliseconds: its *.spot.json files
 * by a walk of the disk (walkSpotFiles). Undefined when the guess could be wrong by more than
 * documents the search adds (a files.exclude pattern other than a name, a tree too big to walk):
 * the caller then waits for the search.
 */
export async function guessSpotFiles(folder: vscode.Uri, limits: SearchLimits = DEFAULT_LIMITS, signal?: AbortSignal): Promise<vscode.Uri[] | undefined> {
  if (folder.scheme !== 'file') return undefined;
  const skipped = [namePattern(SKIPPED_FOLDER)];
  const excluded = vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude') ?? {};
  for (const [pattern, on] of Object.entries(excluded)) {
    if (on === false) continue;
    const name = on === true ? EXCLUDED_NAME.exec(pattern)?.[1] : undefined;
    if (name === undefined) return undefined;
    skipped.push(namePattern(name));
  }
  const skip = (name: string) => skipped.some((pattern) => pattern.test(name));
  const paths = await walkSpotFiles(folder.fsPath, { skip, skipDotFolders: true, maxEntries: GUESS_MAX_ENTRIES, signal });
  if (!paths) return undefined;
  return paths
    .map((path) => vscode.Uri.file(path))
    .sort((a, b) => byPath.compare(a.path, b.path))
    .slice(0, limits.files);
}

/** An unreadable or oversized file is not a spot document; the log says why it was passed over. */
async function isSpotByContent(core: CoreModule, uri: vscode.Uri, log?: Logger): Promise<boolean> {
  try {
    return core.looksLikeSpotDocument(uri.path, await core.readSpotDocument(uri.fsPath));
  } catch (error) {
    log?.warn('import', `passed over ${uri.fsPath}: ${(error as Error).message}`);
    return false;
  }
}
