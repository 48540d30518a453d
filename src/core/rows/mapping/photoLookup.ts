// The photo a cell names, found by one rule wherever the photos are: in the table's archive
// (archiveMedia.ts) or in a folder on disk (folderPhotos.ts). A name is first taken where the cell
// puts it; else it is looked for by its own name below the folder, as form tools keep one folder
// per submission (KoBoToolbox's attachments/<form>/<submission uuid>/, in its ZIP and unpacked),
// where two submissions' photos may share a name (1700000000000.jpg): a name found in several
// folders is the one in the folder this row's cells name (its _uuid, its _id), and is reported
// with its candidates when no cell does. The folder is listed once, when a name is first not where
// its cell puts it, never once per row. Names are compared composed (NFC): a table names
// "Größe.jpg" as typed, while macOS and some ZIP tools write the file's name decomposed; the file
// is then read by the name it has.
import { posix } from 'node:path';

export type FoundPhoto = { entry: string } | { missing: true; listedOnly?: number } | { ambiguous: string[] };

/** Where the photos are: what a lookup asks of an archive or a folder. */
export interface PhotoPlace {
  /** Whether the entry is there as named (a direct hit spares the listing). */
  has(entry: string): boolean | Promise<boolean>;
  /** Every file below the folder, as entries; `listedOnly`: the listing stopped after that many (a folder too large to list whole). */
  list(): Promise<{ entries: Iterable<string>; listedOnly?: number }>;
}

interface PhotoIndex {
  /** Composed entry → the entry as the place spells it. */
  byPath: Map<string, string>;
  /** Composed file name → the entries of that name. */
  byName: Map<string, string[]>;
  listedOnly?: number;
}

export class PhotoLookup {
  #index?: Promise<PhotoIndex>;

  /** `prefix`: the folder the names are below, as entries name it ('' when entries start there). */
  constructor(
    private readonly place: PhotoPlace,
    readonly prefix: string,
  ) {}

  /** The entry the cell's `name` is, for the row whose cell values are `values`. */
  async find(name: string, values: Record<string, unknown>): Promise<FoundPhoto> {
    const direct = await this.where(name);
    if (direct !== undefined) return { entry: direct };
    const index = await (this.#index ??= this.index());
    // The name below the folder, or the entry's whole path in the archive as an ambiguity's message lists it.
    const spelt = index.byPath.get(this.entryOf(name).normalize('NFC')) ?? index.byPath.get(name.normalize('NFC'));
    if (spelt !== undefined) return { entry: spelt };
    const candidates = index.byName.get(posix.basename(name).normalize('NFC')) ?? [];
    if (candidates.length === 0) return index.listedOnly === undefined ? { missing: true } : { missing: true, listedOnly: index.listedOnly };
    if (candidates.length === 1) return { entry: candidates[0] };
    const named = rowTexts(values);
    const own = candidates.filter((entry) =>
      posix
        .dirname(entry)
        .normalize('NFC')
        .split('/')
        .some((segment) => named.has(segment)),
    );
    // In name order: the same words whichever order a file system lists them in.
    return own.length === 1 ? { entry: own[0] } : { ambiguous: [...(own.length > 1 ? own : candidates)].sort() };
  }

  /** The entry `name` is where its cell puts it, if it is there (nothing is listed). */
  async where(name: string): Promise<string | undefined> {
    const direct = this.entryOf(name);
    return (await this.place.has(direct)) ? direct : undefined;
  }

  private entryOf(name: string): string {
    return this.prefix === '' ? name : `${this.prefix}/${name}`;
  }

  /** The place's files by their own name; what a Mac or a file manager leaves beside them is no photo. */
  private async index(): Promise<PhotoIndex> {
    const listed = await this.place.list();
    const byPath = new Map<string, string>();
    const byName = new Map<string, string[]>();
    for (const entry of listed.entries) {
      if (isLeftBehind(entry)) continue;
      const composed = entry.normalize('NFC');
      byPath.set(composed, entry);
      const name = posix.basename(composed);
      const list = byName.get(name);
      if (list) list.push(entry);
      else byName.set(name, [entry]);
    }
    return listed.listedOnly === undefined ? { byPath, byName } : { byPath, byName, listedOnly: listed.listedOnly };
  }
}

/**
 * A Finder's copy of resource forks (__MACOSX/, ._IMG_0001.jpg beside IMG_0001.jpg) and other
 * hidden files: taken for photos, they would make a name look as if two folders held it.
 */
export function isLeftBehind(entry: string): boolean {
  return entry.split('/').some((segment) => segment === '__MACOSX' || (segment.startsWith('.') && segment !== '.' && segment !== '..'));
}

/** The row's cell texts, composed, as a folder could be named after them (ODK's and KoBo's "uuid:…" without its prefix too). */
export function rowTexts(values: Record<string, unknown>): Set<string> {
  const texts = new Set<string>();
  for (const value of Object.values(values)) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = String(value).trim().normalize('NFC');
    if (text === '') continue;
    texts.add(text);
    if (text.startsWith('uuid:')) texts.add(text.slice(5));
  }
  return texts;
}
