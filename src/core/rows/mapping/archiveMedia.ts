// The photos of a table read from an archive, found by the names its cells give. ODK Central keeps
// them in media/ under their own names; KoBoToolbox keeps one folder per submission, where two
// submissions' photos may share a name (1700000000000.jpg): a name found in several folders is the
// one in the folder this row's cells name (its _uuid, its _id), and is reported when no cell does.
import { posix } from 'node:path';
import type { TableArchive } from '../read/types';

export type ArchivePhoto = { entry: string } | { missing: true } | { ambiguous: string[] };

export class ArchiveMedia {
  #byName?: Map<string, string[]>;

  /** `folder`: inside the archive, '' for its top. */
  constructor(
    readonly archive: TableArchive,
    readonly folder: string,
  ) {}

  /** The entry the cell's `name` is, for the row whose cell values are `values`. */
  find(name: string, values: Record<string, unknown>): ArchivePhoto {
    const direct = this.folder === '' ? name : `${this.folder}/${name}`;
    if (this.archive.has(direct)) return { entry: direct };
    const candidates = this.byName().get(posix.basename(name)) ?? [];
    if (candidates.length === 0) return { missing: true };
    if (candidates.length === 1) return { entry: candidates[0] };
    const named = rowTexts(values);
    const own = candidates.filter((entry) =>
      posix
        .dirname(entry)
        .split('/')
        .some((segment) => named.has(segment)),
    );
    return own.length === 1 ? { entry: own[0] } : { ambiguous: own.length > 1 ? own : candidates };
  }

  /** Entries below the folder by their own name, listed once, when a cell's name is first looked for there. */
  private byName(): Map<string, string[]> {
    if (this.#byName) return this.#byName;
    const prefix = this.folder === '' ? '' : `${this.folder}/`;
    const byName = new Map<string, string[]>();
    for (const entry of this.archive.names()) {
      if (!entry.startsWith(prefix) || entry.startsWith('__MACOSX/')) continue;
      const name = posix.basename(entry);
      const list = byName.get(name);
      if (list) list.push(entry);
      else byName.set(name, [entry]);
    }
    return (this.#byName = byName);
  }
}

/** A folder of the archive as a mapping gives it ("media", "./media/", "."): '' for its top; undefined when it climbs out. */
export function archiveFolder(folder: string | undefined): string | undefined {
  const normal = posix.normalize(`${folder ?? '.'}`.replaceAll('\\', '/')).replace(/\/+$/, '');
  if (normal === '.' || normal === '') return '';
  if (normal.startsWith('..') || normal.startsWith('/')) return undefined;
  return normal;
}

/** The row's cell texts, as a folder could be named after them (ODK's and KoBo's "uuid:…" without its prefix too). */
function rowTexts(values: Record<string, unknown>): Set<string> {
  const texts = new Set<string>();
  for (const value of Object.values(values)) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = String(value).trim();
    if (text === '') continue;
    texts.add(text);
    if (text.startsWith('uuid:')) texts.add(text.slice(5));
  }
  return texts;
}
