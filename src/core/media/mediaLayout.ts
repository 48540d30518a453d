// The on-disk convention: `walk.spot.json` takes its media from `walk.media/` beside it, one
// subfolder per gallery field (`walk.media/fld_7_3/…`), or the files directly in the folder when
// the document has a single gallery field. Files go into a gallery in name order.
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { withMembers } from '../objects/withMembers';
import type { PackedFile } from '../files/packedFile';

/** Names a file manager leaves behind; never media of a spot. Dot files are skipped as well. */
const IGNORED_NAMES = new Set(['thumbs.db', 'desktop.ini', 'ehthumbs.db']);

export interface MediaFileEntry {
  /** The file's own name. */
  name: string;
  path: string;
  /** Path relative to the media folder, with '/' separators (e.g. "fld_7_3/01-start.jpg"). */
  relativePath: string;
  /** A file inside an archive (a photo of a form tool's export.zip): read from it, never from `path`, which only names it. */
  packed?: PackedFile;
  /**
   * A photo a table names by its web address (`path` and `relativePath` are then its label, addressLabel): fetched by the import's
   * check (CheckOptions.fetchPhoto) into the run's cache, and read from there as `packed`.
   */
  remote?: { url: string };
}

export interface MediaGroup {
  /** The subfolder's name (a gallery field), or undefined for files directly in the media folder. */
  folder?: string;
  /** The folder its files must be inside, links resolved (a document's own folder, a mapping's media folder): mediaFileRules.ts. */
  within?: string;
  /** In name order. */
  files: MediaFileEntry[];
}

export interface MediaLayout {
  /** Where the document's media live, whether or not the folder exists. */
  folder: string;
  exists: boolean;
  /** The groups that hold at least one file: direct files first, then subfolders in name order. */
  groups: MediaGroup[];
  /** Relative paths of folders below a field's subfolder: not media, reported so nothing is silently left out. */
  nestedFolders: string[];
  /** Set when the folder exists but cannot be listed. */
  unreadable?: string;
  /** The run leaves the document's media alone (--no-media): an empty folder says nothing of its galleries. */
  leftAlone?: true;
}

/**
 * The layout of a document whose media folder is left alone (media: false, --no-media): as if it
 * had none, so a pending gallery field needs "state": 2 in the document itself.
 */
export function noMediaLayout(documentPath: string): MediaLayout {
  return new LayoutWithoutMedia(documentPath);
}

/**
 * Names its folder only when something asks (a bulk import without media never does): two path
 * operations and a pattern per spot otherwise. A class, since an object literal with a getter is
 * slower to make than the folder's name.
 */
class LayoutWithoutMedia implements MediaLayout {
  readonly exists = false;
  readonly leftAlone = true;
  readonly groups: MediaGroup[] = [];
  readonly nestedFolders: string[] = [];
  readonly #documentPath: string;
  #folder?: string;

  constructor(documentPath: string) {
    this.#documentPath = documentPath;
  }

  get folder(): string {
    return (this.#folder ??= mediaFolderFor(this.#documentPath));
  }
}

/** `trails/walk.spot.json` → `trails/walk.media`; any other `x.json` spot document → `x.media`. */
export function mediaFolderFor(documentPath: string): string {
  const name = basename(documentPath);
  const stem = /\.spot\.json$/i.test(name) ? name.slice(0, -'.spot.json'.length) : name.replace(/\.json$/i, '');
  return join(dirname(documentPath), `${stem}.media`);
}

// Made on first use: ICU loads its collation data then (about 8 ms), which a window that only
// validates or sends documents should not pay when it loads the core.
let collator: Intl.Collator | undefined;

/**
 * Name order as a file manager shows it: numbers inside names compare by value ("2.jpg" before
 * "10.jpg"); names equal to the collator are ordered by their code points, so the order is total.
 */
export function compareMediaNames(a: string, b: string): number {
  collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Lists a document's media folder without reading any file: cheap enough for a CodeLens. */
export async function listSpotMedia(documentPath: string): Promise<MediaLayout> {
  const folder = mediaFolderFor(documentPath);
  const layout: MediaLayout = { folder, exists: false, groups: [], nestedFolders: [] };
  let entries;
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return layout;
    return withMembers(layout, { exists: true, unreadable: (error as Error).message });
  }
  layout.exists = true;
  const direct: MediaFileEntry[] = [];
  const subfolders: string[] = [];
  for (const entry of entries) {
    if (isIgnored(entry.name)) continue;
    const kind = await kindOf(join(folder, entry.name), entry);
    if (kind === 'file') direct.push(fileEntry(folder, entry.name));
    else if (kind === 'folder') subfolders.push(entry.name);
  }
  // Links may lead anywhere inside the document's folder, not out of it (a media folder that is a link out included).
  const within = dirname(documentPath);
  if (direct.length > 0) layout.groups.push({ files: direct.sort(byName), within });
  for (const name of subfolders.sort(compareMediaNames)) {
    const files: MediaFileEntry[] = [];
    let inner;
    try {
      inner = await fs.readdir(join(folder, name), { withFileTypes: true });
    } catch (error) {
      return withMembers(layout, { unreadable: `${name}: ${(error as Error).message}` });
    }
    for (const entry of inner) {
      if (isIgnored(entry.name)) continue;
      const kind = await kindOf(join(folder, name, entry.name), entry);
      if (kind === 'file') files.push(fileEntry(folder, entry.name, name));
      else if (kind === 'folder') layout.nestedFolders.push(`${name}/${entry.name}`);
    }
    if (files.length > 0) layout.groups.push({ folder: name, files: files.sort(byName), within });
  }
  return layout;
}

/** Number of media files a document has beside it (0 without a media folder). */
export function mediaCount(layout: MediaLayout): number {
  return layout.groups.reduce((sum, group) => sum + group.files.length, 0);
}

function isIgnored(name: string): boolean {
  return name.startsWith('.') || IGNORED_NAMES.has(name.toLowerCase());
}

function fileEntry(folder: string, name: string, subfolder?: string): MediaFileEntry {
  return {
    name,
    path: subfolder ? join(folder, subfolder, name) : join(folder, name),
    relativePath: subfolder ? `${subfolder}/${name}` : name,
  };
}

function byName(a: MediaFileEntry, b: MediaFileEntry): number {
  return compareMediaNames(a.name, b.name);
}

/** Follows symbolic links; a dangling one counts as a file, so it is reported as unreadable. */
async function kindOf(path: string, entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): Promise<'file' | 'folder' | 'other'> {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'folder';
  if (!entry.isSymbolicLink()) return 'other';
  try {
    const stats = await fs.stat(path);
    return stats.isDirectory() ? 'folder' : stats.isFile() ? 'file' : 'other';
  } catch {
    return 'file';
  }
}
