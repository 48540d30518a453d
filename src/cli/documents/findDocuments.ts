// Finds the spot documents named on the command line. A file named explicitly is a document
// whatever its name (so a mistake is reported, not skipped), except a topic definition file
// (*.topic.json): no spot document, it is found as what it is (collectDocuments.ts). A folder is
// walked recursively, in name order, by the rule the editor's Import Folder uses: *.spot.json
// files, and other .json files whose data.type is "spots" (the core's looksLikeSpotDocument),
// with node_modules and dot-folders left out. Symbolic links are followed, each real folder once.
// Each find is handed to the caller as it is made, in order: a folder of 100,000 documents costs
// a name test and a string per document, not a trip through generators and path functions.
import { promises as fs, type Dirent } from 'node:fs';
import { resolve, sep } from 'node:path';
import { MAX_DOCUMENT_BYTES, TOPIC_FILE_PATTERN, looksLikeSpotDocument } from '../../core';
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
async function checkPaths(paths: readonly string[], cwd: string): Promise<Array<{ path: string; isFolder: boolean }>> {
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

/** Finds what `paths` name, handing each find to `found` in order; resolves once every folder was walked. */
export async function findDocuments(paths: readonly string[], cwd: string, found: (entry: Found) => void, signal?: AbortSignal): Promise<void> {
  const checked = await checkPaths(paths, cwd);
  // One folder alone never yields a document twice (each real folder is walked once, and names
  // in a folder differ): only several paths need the paths found so far.
  const seen = checked.length > 1 ? new Set<string>() : undefined;
  const firstTime = (path: string) => {
    if (!seen) return true;
    if (seen.has(path)) return false;
    seen.add(path);
    return true;
  };
  const visitedFolders = new Set<string>();
  for (const { path, isFolder } of checked) {
    if (!isFolder) {
      if (firstTime(path)) found(TOPIC_FILE_PATTERN.test(path) ? { kind: 'topicDefinition', path } : { kind: 'document', path });
      continue;
    }
    let documents = 0;
    await walk(
      path,
      visitedFolders,
      (entry) => {
        if (entry.kind === 'document') {
          if (!firstTime(entry.path)) return;
          documents++;
        }
        found(entry);
      },
      signal,
    );
    if (documents === 0) found({ kind: 'empty', path });
  }
}

const SPOT_FILE = /\.spot\.json$/i;

async function walk(folder: string, visited: Set<string>, found: (entry: Found) => void, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  let entries: Dirent[];
  try {
    const real = await fs.realpath(folder);
    if (visited.has(real)) return;
    visited.add(real);
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch (error) {
    found({ kind: 'unreadable', path: folder, message: `the folder cannot be read: ${(error as Error).message}` });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // Compared without case: on a file system that ignores it, X.MEDIA is walk.media's folder too.
  let names: Set<string> | undefined;
  // What path.join(folder, name) gives: `folder` is resolved (no trailing separator but a root's)
  // and a name from readdir has no separator and is neither . nor ..
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  for (const entry of entries) {
    const name = entry.name;
    let isFolder = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const target = await fs.stat(prefix + name).catch(() => undefined);
      isFolder = !!target?.isDirectory();
      isFile = !!target?.isFile();
    }
    if (isFolder) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      await walk(prefix + name, visited, found, signal);
    } else if (isFile && JSON_FILE.test(name)) {
      const path = flattened(prefix + name);
      const verdict = SPOT_FILE.test(name) || (await isSpotDocument(path));
      if (verdict === true) {
        names ??= new Set(entries.map((other) => other.name.toLowerCase()));
        found({ kind: 'document', path, mediaFolder: names.has(mediaFolderName(name).toLowerCase()) });
      } else if (typeof verdict === 'string') found({ kind: 'passedOver', path, message: verdict });
    }
  }
}

/**
 * The string itself, made one piece now. V8 keeps `prefix + name` as a pair of the two until the
 * text is first read whole (here: when the document is opened, long after the walk), and a pair
 * made whole once it has outlived the young generation stays as a 32-byte wrapper beside its
 * text: for a list of 100,000 paths kept for the whole run, 3 MiB more. Reading a character makes
 * it whole while it is young, and the collector then drops the wrapper.
 */
function flattened(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** The name of a document's media folder, as the core's mediaFolderFor names it: walk.spot.json → walk.media, x.json → x.media. */
function mediaFolderName(documentName: string): string {
  return `${SPOT_FILE.test(documentName) ? documentName.slice(0, -'.spot.json'.length) : documentName.replace(/\.json$/i, '')}.media`;
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
