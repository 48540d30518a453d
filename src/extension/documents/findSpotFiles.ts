// Finds the spot documents under a folder for Import Folder: every *.spot.json file, and every
// other .json file whose data.type is "spots". The file search (workspace.findFiles) honours
// files.exclude, skips node_modules and dot-folders, follows symbolic links without looping
// (ripgrep detects cycles), passes over folders it cannot read instead of failing, and works for
// folders outside the workspace too. Reading each candidate goes through the core's fileItems,
// so the size guard is the core's; a file that cannot be read is logged and passed over.
import * as vscode from 'vscode';
import type { CoreModule } from '../platform/lazyCore';
import type { Logger } from '../platform/services';

/** Import Folder stops collecting here: importing more than this at once is a job for the command line. */
const MAX_FILES = 5000;
/** JSON files looked at, at most (most JSON files in a big tree are not spot documents). */
const MAX_CANDIDATES = 50_000;

const SPOT_FILE = /\.spot\.json$/i;
/** The order of localeCompare, from one collator: tens of thousands of paths sort many times faster. */
const byPath = new Intl.Collator();
const EXCLUDED = '{**/node_modules/**,**/.*/**}';

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

/** An unreadable or oversized file is not a spot document; the log says why it was passed over. */
async function isSpotByContent(core: CoreModule, uri: vscode.Uri, log?: Logger): Promise<boolean> {
  try {
    return core.looksLikeSpotDocument(uri.path, await core.readSpotDocument(uri.fsPath));
  } catch (error) {
    log?.warn('import', `passed over ${uri.fsPath}: ${(error as Error).message}`);
    return false;
  }
}
