// A folder of geotagged photos as a table (source.format "photos"): each photo a row, in name
// order, its subfolders' photos too; with source.group "folder", each subfolder a row (a tree, a
// plant, a site), its photos in name order its gallery, its place and time those of its first photo
// that has a position. A row's cells are the photo's path in the folder (`file`), its subfolder
// (`folder`), its content's SHA-256 (`sha256`, worked out only when asked for: only a template
// that names it reads a photo whole), its EXIF position, altitude, direction and time
// (photoTags.ts), and the photos for the media mapping (`photos`, ";"-separated). Each row is a
// point where its photo was taken (hasGeometry: the mapping's latitude and longitude may be left
// out); a photo without a position is a problem at that photo. A row's line is its number in name
// order, and messages name it by its photo (cellReference.ts). Loaded only when a folder is opened.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { throwIfAborted } from '../../../api/errors';
import { l10n } from '../../../text/l10n';
import { namePhotoRows } from '../cellReference';
import { TableReadError } from '../tableReadError';
import type { CellPosition, RowReadProblem, SourceRow, SourceTable, TableFormat } from '../types';
import { readPhotoTags, type PhotoTags } from './photoTags';

/** The columns of a photo folder's rows, in this order. */
const PHOTO_COLUMNS = ['file', 'folder', 'sha256', 'latitude', 'longitude', 'altitude', 'direction', 'taken', 'photos'];

/** The files read as photos: the kinds whose EXIF tags exifr reads. Other files (videos, notes, the mapping) are left alone. */
const PHOTO_FILE = /\.(jpe?g|heic|heif|avif|tiff?|png)$/i;

/** One spot per photo (the default), or one per subfolder. */
type PhotoGrouping = 'photo' | 'folder';

/** A row to be: a photo, or a subfolder's photos. */
interface PhotoUnit {
  /** How messages name it: the photo's path in the folder, or the subfolder's with a "/". */
  name: string;
  /** The subfolder ('' at the folder's top). */
  folder: string;
  /** Paths in the folder ("/"-separated), in name order. */
  photos: string[];
  /** A subfolder's photos (group "folder"). */
  group: boolean;
}

/** @public (openTable.ts loads this module with require() when a folder is opened) */
export async function openPhotoFolder(path: string, given: { group?: PhotoGrouping }): Promise<SourceTable> {
  const stats = await stat(path).catch(() => undefined);
  if (!stats) throw new TableReadError(path, l10n.t('there is no such folder'));
  if (!stats.isDirectory()) throw new TableReadError(path, l10n.t('is not a folder: the format photos reads a folder of photos'));
  const photos = await photosIn(path);
  const detected: string[] = [];
  let units: PhotoUnit[];
  if (given.group === 'folder') {
    const groups = new Map<string, string[]>();
    let loose = 0;
    for (const photo of photos) {
      const slash = photo.indexOf('/');
      if (slash < 0) {
        loose++;
        continue;
      }
      const folder = photo.slice(0, slash);
      const inside = groups.get(folder);
      if (inside) inside.push(photo);
      else groups.set(folder, [photo]);
    }
    if (loose > 0) detected.push(l10n.t('{0} photos at the top of the folder are in no subfolder: with group "folder" they are not read', loose));
    units = [...groups].sort(([a], [b]) => compareNames(a, b)).map(([folder, inside]) => ({ name: `${folder}/`, folder, photos: inside, group: true }));
    if (units.length === 0) throw new TableReadError(path, l10n.t('no subfolder holds photos: group "folder" makes one spot of each subfolder'));
  } else {
    units = photos.map((photo) => ({ name: photo, folder: posix.dirname(photo) === '.' ? '' : posix.dirname(photo), photos: [photo], group: false }));
    if (units.length === 0) throw new TableReadError(path, l10n.t('holds no photos (.jpg, .jpeg, .heic, .heif, .avif, .tif, .tiff, .png)'));
  }
  const format: TableFormat = { format: 'photos', encoding: 'utf-8' };
  namePhotoRows(
    format,
    units.map((unit) => unit.name),
  );
  return { path, format, detected, columns: [...PHOTO_COLUMNS], hasGeometry: true, rows: (signal) => photoRows(path, units, signal) };
}

/** Every photo in the folder and its subfolders (not hidden ones: .spot-import, .thumbnails), as "/"-separated paths in name order. */
async function photosIn(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (folder: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      // A link is taken for what it points to (a file; a folder is not followed, so no link makes a circle).
      const isFile =
        entry.isFile() ||
        (entry.isSymbolicLink() &&
          (await stat(path).then(
            (target) => target.isFile(),
            () => false,
          )));
      if (isFile && PHOTO_FILE.test(entry.name)) found.push(`${prefix}${entry.name}`);
      else if (entry.isDirectory()) await visit(path, `${prefix}${entry.name}/`);
    }
  };
  await visit(root, '');
  return found.sort(comparePaths);
}

// Name order as a file manager shows it: IMG_2 before IMG_10; the same on every machine.
const NAME_ORDER = new Intl.Collator('en', { numeric: true, sensitivity: 'variant' });

function compareNames(a: string, b: string): number {
  return NAME_ORDER.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Folder by folder: "tree-2/b.jpg" before "tree-10/a.jpg". */
function comparePaths(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const order = compareNames(left[index], right[index]);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

async function* photoRows(root: string, units: readonly PhotoUnit[], signal?: AbortSignal): AsyncGenerator<SourceRow | RowReadProblem> {
  for (let index = 0; index < units.length; index++) {
    throwIfAborted(signal);
    const unit = units[index];
    const line = index + 1;
    // The photo whose position and time the row takes: the first in name order that has a position.
    let lead: { photo: string; tags: PhotoTags } | undefined;
    let unreadable: { photo: string; problem: string } | undefined;
    for (const photo of unit.photos) {
      const tags = await readPhotoTags(join(root, photo));
      if ('problem' in tags) unreadable ??= { photo, problem: tags.problem };
      else if (tags.latitude !== undefined && tags.longitude !== undefined) {
        lead = { photo, tags };
        break;
      }
    }
    if (!lead) {
      yield { row: line, line, column: 1, problem: noPosition(unit, unreadable) };
      continue;
    }
    const { photo, tags } = lead;
    const values = new PhotoCells(join(root, photo), {
      file: photo,
      folder: unit.folder,
      latitude: tags.latitude,
      longitude: tags.longitude,
      altitude: tags.altitude ?? '',
      direction: tags.direction ?? '',
      taken: tags.taken ?? '',
      photos: unit.photos.join(';'),
    });
    const cells: Record<string, CellPosition> = {};
    for (const column of PHOTO_COLUMNS) cells[column] = { line, column: 1 };
    const geometry = { type: 'Point', coordinates: [tags.longitude, tags.latitude], position: { line, column: 1 } };
    yield { row: line, line, values, cells, geometry, ...(tags.warning ? { placeWarning: tags.warning } : {}) };
  }
}

/** Why a row has no place; a subfolder's names the first of its photos that could not be read, as a photo's own row is named by it. */
function noPosition(unit: PhotoUnit, unreadable: { photo: string; problem: string } | undefined): string {
  if (unit.group)
    return unreadable === undefined
      ? l10n.t('No photo in this folder has a GPS position in its EXIF tags: a spot needs one.')
      : l10n.t(
          'No photo in this folder has a GPS position in its EXIF tags: a spot needs one (the tags of {0} cannot be read: {1}).',
          unreadable.photo,
          unreadable.problem,
        );
  return unreadable === undefined
    ? l10n.t("The photo has no GPS position in its EXIF tags: a spot needs one (was the camera's location off, or did an app remove it?).")
    : l10n.t("The photo's tags cannot be read ({0}): a spot needs its GPS position.", unreadable.problem);
}

/**
 * A row's cells, and its photo's SHA-256, which is worked out from the whole file when the row is
 * first asked for it (a source_id template that names {sha256}) and never otherwise.
 */
class PhotoCells {
  [column: string]: unknown;
  readonly #photo: string;
  #sha256: string | undefined;

  static readonly #hash: PropertyDescriptor = {
    enumerable: true,
    get(this: PhotoCells): string {
      return (this.#sha256 ??= contentHash(this.#photo));
    },
  };

  constructor(photo: string, values: Record<string, unknown>) {
    this.#photo = photo;
    for (const column of PHOTO_COLUMNS) {
      if (column === 'sha256') Object.defineProperty(this, column, PhotoCells.#hash);
      else this[column] = values[column];
    }
  }
}

/** The file's SHA-256 in hex, read a MiB at a time; '' when it cannot be read (the source_id is then empty, and said so). */
function contentHash(path: string): string {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, 'r');
    for (let read = readSync(descriptor, buffer); read > 0; read = readSync(descriptor, buffer)) hash.update(buffer.subarray(0, read));
    return hash.digest('hex');
  } catch {
    return '';
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
