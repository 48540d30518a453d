// Finds the spot documents named on the command line. A file named explicitly is a document
// whatever its name (so a mistake is reported, not skipped), except a topic definition file
// (*.topic.json): no spot document, it is found as what it is (collectDocuments.ts). A folder is
// walked recursively, lazily, in name order, by the rule the editor's Import Folder uses:
// *.spot.json files, and other .json files whose data.type is "spots" (the core's
// looksLikeSpotDocument), with node_modules and dot-folders left out. Symbolic links are followed,
// each real folder once.
import { promises as fs, type Dirent } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { MAX_DOCUMENT_BYTES, TOPIC_FILE_PATTERN, looksLikeSpotDocument, mediaFolderFor } from '../../core';
import { CliError } from '../exit';

export type Found =
  /**
   * A spot document (absolute path). mediaFolder false: the walk listed its folder and no media
   * folder is beside it (so the import does not look for one again); undefined: not known.
   */
  | { kind: 'document'; path: string; mediaFolder?: boolean }
  /** A topic definition file (*.topic.json) named on the command line (absolute path). */
  | { kind: 'topicDefinition'; path: string }
  /** A folder found in the walk that could not be read: what it holds was not checked. */
  | { kind: 'unreadable'; path: string; message: string }
  /** A .json file that could not be read to tell whether it is a spot document: passed over. */
  | { kind: 'passedOver'; path: string; message: string }
  /** A folder named on the command line that holds no spot document. */
  | { kind: 'empty'; path: string };

const JSON_FILE = /\.json$/i;

/** Checks every path before anything is read or sent: one line per path that does not exist. */
export async function checkPaths(paths: readonly string[], cwd: string): Promise<Array<{ path: string; isFolder: boolean }>> {
  const problems: string[] = [];
  const checked: Array<{ path: string; isFolder: boolean }> = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    try {
      const stats = await fs.stat(path);
      if (!stats.isFile() && !stats.isDirectory()) problems.push(`"${given}" is neither a file nor a folder.`);
      else checked.push({ path, isFolder: stats.isDirectory() });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      problems.push(code === 'ENOENT' || code === 'ENOTDIR' ? `"${given}" does not exist.` : `"${given}" cannot be read: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new CliError(problems.join('\n'));
  return checked;
}

export async function* findDocuments(paths: readonly string[], cwd: string, signal?: AbortSignal): AsyncGenerator<Found> {
  const seen = new Set<string>();
  const visitedFolders = new Set<string>();
  for (const { path, isFolder } of await checkPaths(paths, cwd)) {
    if (!isFolder) {
      if (!seen.has(path)) {
        seen.add(path);
        yield TOPIC_FILE_PATTERN.test(path) ? { kind: 'topicDefinition', path } : { kind: 'document', path };
      }
      continue;
    }
    let found = 0;
    for await (const entry of walk(path, visitedFolders, signal)) {
      if (entry.kind === 'document') {
        if (seen.has(entry.path)) continue;
        seen.add(entry.path);
        found++;
      }
      yield entry;
    }
    if (found === 0) yield { kind: 'empty', path };
  }
}

async function* walk(folder: string, visited: Set<string>, signal?: AbortSignal): AsyncGenerator<Found> {
  signal?.throwIfAborted();
  let entries: Dirent[];
  try {
    const real = await fs.realpath(folder);
    if (visited.has(real)) return;
    visited.add(real);
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch (error) {
    yield { kind: 'unreadable', path: folder, message: `the folder cannot be read: ${(error as Error).message}` };
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Compared without case: on a file system that ignores it, X.MEDIA is walk.media's folder too.
  const names = new Set(entries.map((entry) => entry.name.toLowerCase()));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    let isFolder = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const target = await fs.stat(path).catch(() => undefined);
      isFolder = !!target?.isDirectory();
      isFile = !!target?.isFile();
    }
    if (isFolder) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      yield* walk(path, visited, signal);
    } else if (isFile && JSON_FILE.test(entry.name)) {
      const verdict = await isSpotDocument(path);
      if (verdict === true) yield { kind: 'document', path, mediaFolder: names.has(basename(mediaFolderFor(path)).toLowerCase()) };
      else if (typeof verdict === 'string') yield { kind: 'passedOver', path, message: verdict };
    }
  }
}

/** true, false, or why the file could not be looked at. Only files not named *.spot.json are read. */
async function isSpotDocument(path: string): Promise<boolean | string> {
  if (looksLikeSpotDocument(path, '')) return true;
  try {
    // A large .json file is data of some other kind, not a spot document: not even opened.
    if ((await fs.stat(path)).size > MAX_DOCUMENT_BYTES) return false;
    return looksLikeSpotDocument(path, await fs.readFile(path, 'utf8'));
  } catch (error) {
    return `the file cannot be read: ${(error as Error).message}`;
  }
}
