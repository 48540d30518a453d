// Everything that can be known before a byte is sent, checked at once and reported together: the
// document itself, which gallery field each media folder feeds, and every file (readable, not
// empty, an accepted type, not the same content twice in one gallery). Problems are placed on the
// document (offset/length, like the editor's diagnostics) and name the file they are about.
import { isGalleryId } from '../api/spotSchema';
import { basename } from 'node:path';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { definitionFor, isGalleryField, type GalleryFieldCatalog, type GalleryFieldTypes } from '../api/spotSchema';
import { parseSpotText, type LocatedProblem, type ParsedSpotText } from '../documents/parseSpotText';
import { attributesOf } from '../documents/validateSpot';
import { SPOT_RULES, toPointer } from '../documents/problems';
import { DEFAULT_ACCEPTED_TYPES } from './acceptedTypes';
import { checkMediaFile, type MediaFileVerdict } from './mediaFileRules';
import { galleriesNamedTwice } from './galleryClaims';
import { contentKey, hashFile, readAndHashFile, sampleHash, type ContentKey } from './contentKey';
import { HOLD_FILE_BYTES, type HeldContent } from './heldContent';
import { listSpotMedia, type MediaFileEntry, type MediaGroup, type MediaLayout } from './mediaLayout';
import { l10n } from '../text/l10n';
import { withMembers } from '../objects/withMembers';
import { createReadStream } from 'node:fs';
import type { PackedFile } from '../files/packedFile';
import { FetchError } from './remote/photoFetcher';
import { fetchedFileName } from './remote/photoAddress';

export interface SpotProblem extends LocatedProblem {
  /** The media file or folder the problem is about, when it is about one. */
  file?: string;
  /**
   * For a problem a source found while making the document (a row's cell that is not a number):
   * the members (JSON pointers) it left out of the document because of it, besides the one at its
   * own pointer. A coordinate that cannot be read leaves out both latitude and longitude, so the
   * base rules' "longitude is required" is not said next to it (see withTopicRules).
   */
  leftOut?: readonly string[];
}

export interface CheckedMediaFile extends MediaFileEntry {
  size: number;
  mtimeMs: number;
  /** '' while hashWhenSent. */
  sha256: string;
  /** '' while hashWhenSent. */
  key: ContentKey;
  mimeType: string;
  /** The bytes that were hashed, held for the upload when the run had room (see HeldContent). */
  content?: Buffer;
  /**
   * Not read by the check (CheckOptions.hashWhenSent): its upload hashes it as it goes out, and
   * sets sha256 and key then (see galleryUploads.ts).
   */
  hashWhenSent?: boolean;
}

/** A gallery field that has media beside the document. */
export interface GalleryPlan {
  field: string;
  /** The field's value in the document: null (a gallery to create) or a gallery id. */
  value: number | null;
  /** In name order: the order the gallery ends up in. */
  files: CheckedMediaFile[];
}

export interface SpotMediaCheck {
  path: string;
  text: string;
  parsed: ParsedSpotText;
  /** data.attributes.source_id when the document has a text there. */
  sourceId?: string;
  /** The topic definition of the document's topic_id, when one is in effect. */
  definition?: GalleryFieldTypes;
  layout: MediaLayout;
  /** Fields with media, in field name order. Empty: the document goes through the plain import. */
  galleries: GalleryPlan[];
  problems: SpotProblem[];
  /** No problem of severity error: safe to send. */
  ok: boolean;
}

export interface CheckOptions {
  /** MIME types (or families such as image/*) a gallery accepts. Default DEFAULT_ACCEPTED_TYPES. */
  acceptedTypes?: readonly string[];
  /** Gallery fields the journal knows, to place files that sit directly in the media folder. */
  knownGalleryFields?: readonly string[];
  /** A hash already known for a file of this size and modification time (the journal's cache). */
  knownHash?: (relativePath: string, size: number, mtimeMs: number) => string | undefined;
  /** An already listed media folder (saves listing it twice). */
  layout?: MediaLayout;
  /** The text already parsed (saves parsing it twice), with the same topics. */
  parsed?: ParsedSpotText;
  /** The topic definitions in effect: which members are galleries (see isGalleryField). */
  topics?: GalleryFieldCatalog;
  /** Keep the bytes of the files read for their hash, within this budget (the run's uploads send them). */
  holdContent?: HeldContent;
  /**
   * false: each file is checked without reading it (present, a file, not empty, a type accepted):
   * a check over thousands of rows' photos while the user types. Two files of the same content
   * are then found only by the import, which hashes every file it sends. Default true.
   */
  hashFiles?: boolean;
  /**
   * A file whose bytes are not held (larger than HOLD_FILE_BYTES, or beyond the run's budget) is
   * not read by the check when no other file of its gallery has its size (so none can have its
   * content): its upload hashes it as it goes out, and it is read from disk once. Its sha256 and
   * key are '' until then (CheckedMediaFile.hashWhenSent). The import engine's own check.
   */
  hashWhenSent?: boolean;
  /**
   * Fetches a photo given by its web address (MediaFileEntry.remote) into the run's cache; it
   * throws a FetchError that says why it could not be had. Without it (a check that sends
   * nothing: validate, a dry run), such photos are left unread and unchecked.
   */
  fetchPhoto?: (url: string) => Promise<{ path: string; size: number; mtimeMs: number; type: string }>;
}

export async function checkSpotMedia(path: string, text: string, options: CheckOptions = {}): Promise<SpotMediaCheck> {
  const parsed = options.parsed ?? parseSpotText(text, { topics: options.topics });
  const layout = options.layout ?? (await listSpotMedia(path));
  const attributes = attributesOf(parsed.value);
  const sourceId = typeof attributes?.source_id === 'string' ? attributes.source_id : undefined;
  const definition = attributes && definitionFor(attributes, options.topics);
  const hasMedia = layout.groups.length > 0 || layout.unreadable !== undefined;
  // A spot with media is imported with state 2 first and gets every gallery id at the end, so a
  // pending (null) gallery field does not need "state": 2 in the file itself.
  const problems: SpotProblem[] = hasMedia && attributes ? parsed.problems.filter((problem) => problem.rule !== SPOT_RULES.pendingNeedsState2) : [...parsed.problems];
  const result: SpotMediaCheck = { path, text, parsed, sourceId, definition, layout, galleries: [], problems, ok: false };
  if (!hasMedia || !attributes) return finish(result);

  const places = new Places(text);
  const folderName = basename(layout.folder);
  if (layout.unreadable) problems.push(places.onAttributes(l10n.t('The media folder {0} cannot be read: {1}', folderName, layout.unreadable), layout.folder));
  for (const nested of layout.nestedFolders) {
    problems.push(withMembers(places.onAttributes(l10n.t('{0}/{1} is not used: a gallery\'s media sit directly in its field\'s folder.', folderName, nested), nested), { severity: 'warning' as const }));
  }
  const direct = layout.groups.find((group) => group.folder === undefined);
  const subfolders = layout.groups.filter((group) => group.folder !== undefined);
  if (direct && subfolders.length > 0) {
    problems.push(places.onAttributes(l10n.t('Files sit both directly in {0}/ and in subfolders: put every file in the subfolder of its gallery field.', folderName), layout.folder));
    return finish(result);
  }
  for (const group of layout.groups) {
    const field: string | undefined = group.folder ?? directField(attributes, definition, options.knownGalleryFields);
    const where = group.folder ? `${folderName}/${group.folder}` : `${folderName}/`;
    if (!field) {
      problems.push(places.onAttributes(l10n.t('Files sit directly in {0}, but the document has no single gallery field to take them (a field set to null). Put them in subfolders named after the gallery fields, e.g. {1}/fld_1_2/.', where, folderName), layout.folder));
      continue;
    }
    if (!isGalleryField(field, definition) || !(field in attributes)) {
      problems.push(places.onAttributes(l10n.t('The media folder {0} names no gallery field of this document: add "{1}": null to create its gallery, or rename the folder after a field (fld_<number>_<number>).', where, field), layout.folder));
      continue;
    }
    const value = attributes[field];
    if (value !== null && !isGalleryId(value)) {
      problems.push(places.onValue(field, l10n.t('{0} has media in {1} but holds {2}: a gallery field with media is null (a gallery to create) or a gallery id.', field, where, JSON.stringify(value)), layout.folder));
      continue;
    }
    const plan: GalleryPlan = { field, value: value as number | null, files: [] };
    result.galleries.push(plan);
    try {
      await checkFiles(group, field, places, problems, options, plan.files);
    } catch (error) {
      // Nobody gets the files checked so far: their held bytes go back to the run.
      options.holdContent?.release(result.galleries.flatMap((gallery) => gallery.files));
      throw error;
    }
  }
  result.galleries.sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
  for (const { field, earlier, galleryId } of galleriesNamedTwice(result.galleries)) {
    problems.push(
      places.onValue(
        field,
        l10n.t(
          '{0} and {1} both name gallery {2}, and each has media beside the document: a gallery holds the media of one field, so the files of {1} would be taken for those of {0} and never sent. Set {1} to null to give it a gallery of its own.',
          earlier,
          field,
          galleryId,
        ),
        layout.folder,
      ),
    );
  }
  return finish(result);
}

function finish(result: SpotMediaCheck): SpotMediaCheck {
  result.ok = result.parsed.value !== undefined && !result.problems.some((problem) => problem.severity === 'error');
  return result;
}

/** The hash of a file checked without reading it (hashFiles: false): never a content's. */
const UNHASHED = 'unhashed';

/** Checks the group's files into `checked`, as they pass (so a caller can release them on a throw). */
async function checkFiles(group: MediaGroup, field: string, places: Places, problems: SpotProblem[], options: CheckOptions, checked: CheckedMediaFile[]): Promise<void> {
  const accepted = options.acceptedTypes ?? DEFAULT_ACCEPTED_TYPES;
  const byKey = new Map<ContentKey, CheckedMediaFile>();
  // Every file's verdict first: which sizes more than one file has (only those can be twins).
  const files = await fetchRemote(group.files, field, places, problems, options);
  const verdicts: MediaFileVerdict[] = [];
  for (const file of files) verdicts.push(await checkMediaFile(file.path, file.name, accepted, file.packed, group.within));
  const sizes = new Map<number, number>();
  for (const verdict of verdicts) if (verdict.ok) sizes.set(verdict.stats.size, (sizes.get(verdict.stats.size) ?? 0) + 1);
  const alone = options.hashWhenSent ? await unlikeSamples(files, verdicts, sizes) : new Set<number>();
  for (const [index, file] of files.entries()) {
    const fail = (message: string) => problems.push(places.onField(field, `${file.relativePath}: ${message}`, file.path));
    const verdict = verdicts[index];
    if (!verdict.ok) {
      fail(verdict.problem);
      continue;
    }
    const { mimeType, stats } = verdict;
    let sha256 = options.knownHash?.(file.relativePath, stats.size, stats.mtimeMs) ?? (options.hashFiles === false ? UNHASHED : undefined);
    let content: Buffer | undefined;
    const hold = !sha256 && (options.holdContent?.reserve(stats.size) ?? false);
    if (!sha256 && !hold && options.hashWhenSent && (sizes.get(stats.size) === 1 || alone.has(index))) {
      // Read once, by its upload (see CheckOptions.hashWhenSent): no other file can be its twin.
      checked.push(withMembers(file, { size: stats.size, mtimeMs: stats.mtimeMs, sha256: '', key: '', mimeType, hashWhenSent: true }));
      continue;
    }
    if (!sha256) {
      try {
        const hashed: { sha256: string; size: number; content?: Buffer } = hold ? await readAndHashFile(file.path, stats.size, file.packed) : await hashFile(file.path, stats.size, file.packed);
        if (hashed.size !== stats.size) throw new Error(l10n.t('it changed while being read'));
        sha256 = hashed.sha256;
        content = hashed.content;
      } catch (error) {
        fail(l10n.t('cannot be read ({0}).', (error as NodeJS.ErrnoException).code ?? (error as Error).message));
        continue;
      } finally {
        if (hold && !content) options.holdContent!.unreserve(stats.size);
      }
    }
    const entry: CheckedMediaFile = withMembers(file, { size: stats.size, mtimeMs: stats.mtimeMs, sha256, key: contentKey(sha256, stats.size), mimeType, content });
    const twin = sha256 === UNHASHED ? undefined : byKey.get(entry.key);
    if (twin) {
      options.holdContent?.release([entry]);
      fail(l10n.t('has the same content as {0}: a gallery would hold it twice. Remove one of them.', twin.relativePath));
      continue;
    }
    byKey.set(entry.key, entry);
    checked.push(entry);
  }
}

/**
 * The files (by index) that share their size with another file of the group but not their
 * sample (sampleHash): none can be a twin, so they need not be read whole to find out. Only sizes
 * whose files were all sampled count: a file in an archive, one fetched from the web, one small
 * enough to be held or one whose sample could not be read is read whole, and so is every other
 * file of its size, or a twin of it would pass unseen.
 */
async function unlikeSamples(files: readonly MediaFileEntry[], verdicts: readonly MediaFileVerdict[], sizes: ReadonlyMap<number, number>): Promise<Set<number>> {
  const bySize = new Map<number, Array<{ index: number; sample: string | undefined }>>();
  for (const [index, verdict] of verdicts.entries()) {
    if (!verdict.ok || (sizes.get(verdict.stats.size) ?? 0) < 2) continue;
    const { size } = verdict.stats;
    const sampled = !files[index].packed && size > HOLD_FILE_BYTES ? await sampleHash(files[index].path, size).catch(() => undefined) : undefined;
    const group = bySize.get(size) ?? [];
    group.push({ index, sample: sampled });
    bySize.set(size, group);
  }
  const alone = new Set<number>();
  for (const group of bySize.values()) {
    if (group.some((file) => file.sample === undefined)) continue;
    const counts = new Map<string, number>();
    for (const { sample } of group) counts.set(sample!, (counts.get(sample!) ?? 0) + 1);
    for (const { index, sample } of group) if (counts.get(sample!) === 1) alone.add(index);
  }
  return alone;
}

/**
 * The group's files with each photo given by its web address fetched into the run's cache and read
 * from there (as a file inside an archive is: `packed`); one that could not be fetched is a problem
 * of its field, and left out. Without fetchPhoto they are all left out unchecked.
 */
async function fetchRemote(files: MediaFileEntry[], field: string, places: Places, problems: SpotProblem[], options: CheckOptions): Promise<MediaFileEntry[]> {
  if (!files.some((file) => file.remote)) return files;
  const ready: MediaFileEntry[] = [];
  for (const file of files) {
    if (!file.remote) {
      ready.push(file);
      continue;
    }
    if (!options.fetchPhoto) continue;
    try {
      const fetched = await options.fetchPhoto(file.remote.url);
      // Its type is what its bytes are: an address's last part ("download?id=3") may say nothing of it.
      ready.push(withMembers(file, { name: fetchedFileName(file.name, fetched.type), packed: cachedFile(fetched, file.relativePath) }));
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      problems.push(places.onField(field, error.message, file.path));
    }
  }
  return ready;
}

/** A fetched photo as a file read through a stream (see PackedFile), named by its address. */
function cachedFile(fetched: { path: string; size: number; mtimeMs: number }, label: string): PackedFile {
  return { label, size: fetched.size, mtimeMs: fetched.mtimeMs, open: async () => createReadStream(fetched.path) };
}

/**
 * The gallery field that files directly in the media folder go to: the one field set to null;
 * after write-back (the field holds its id) the one the journal knows, or the one fld_ member
 * holding an id.
 */
function directField(attributes: Record<string, unknown>, definition: GalleryFieldTypes | undefined, known: readonly string[] = []): string | undefined {
  const fields = Object.keys(attributes).filter((name) => isGalleryField(name, definition));
  const pending = fields.filter((name) => attributes[name] === null);
  if (pending.length > 0) return pending.length === 1 ? pending[0] : undefined;
  const knownIds = fields.filter((name) => known.includes(name) && isGalleryId(attributes[name]));
  if (knownIds.length === 1) return knownIds[0];
  const ids = fields.filter((name) => isGalleryId(attributes[name]));
  return ids.length === 1 ? ids[0] : undefined;
}

/** Where on the document a media problem is shown. */
class Places {
  private parsed?: { root: Node | undefined };

  constructor(private readonly text: string) {}

  /** Parsed only when a problem is to be placed: a good document costs nothing here. */
  private get root(): Node | undefined {
    this.parsed ??= { root: parseTree(this.text) };
    return this.parsed.root;
  }

  onAttributes(message: string, file?: string): SpotProblem {
    return this.at(['data', 'attributes'], '/data/attributes', message, file, 'key');
  }

  onField(field: string, message: string, file?: string): SpotProblem {
    return this.at(['data', 'attributes', field], toPointer(['data', 'attributes', field]), message, file, 'key');
  }

  onValue(field: string, message: string, file?: string): SpotProblem {
    return this.at(['data', 'attributes', field], toPointer(['data', 'attributes', field]), message, file, 'value');
  }

  private at(path: string[], pointer: string, message: string, file: string | undefined, part: 'key' | 'value'): SpotProblem {
    const node = this.root ? findNodeAtLocation(this.root, path) : undefined;
    const target = part === 'key' ? node?.parent?.children?.[0] ?? node : node;
    const length = target?.type === 'object' ? 1 : target?.length ?? 0;
    return { pointer, message, offset: target?.offset ?? 0, length, severity: 'error', ...(file ? { file } : {}) };
  }
}
