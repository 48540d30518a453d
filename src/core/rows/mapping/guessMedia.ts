// The proposed media of a table: the columns whose cells name photo files, and the folder beside
// the table that holds them; else a column of web addresses (iNaturalist's image_url), whose photos
// the import fetches. A column of addresses beside the column of its files (KoBoToolbox's
// photo_URL beside photo) is left out: the files are taken.
import { readdir } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { l10n } from '../../text/l10n';
import type { SourceRow, TableArchive } from '../read';
import type { MediaMapping } from './mappingSchema';
import { isWebAddress } from './webAddress';
import { hostOfAddress } from '../../media/remote/photoAddress';
import { folderPhotos } from './folderPhotos';
import { isLeftBehind, rowTexts, type PhotoLookup } from './photoLookup';

export interface MediaGuess {
  /** The photo columns and their folder, when some column names photo files. */
  media?: MediaMapping;
  /** The columns used or set aside as photos (web addresses): not offered as fields. */
  taken: string[];
  notes: string[];
}

const PHOTO = /\.(jpe?g|png|gif|webp|heic|heif|avif|tiff?|bmp|mp4|mov|webm)$/i;
const PHOTO_FOLDERS = ['photos', 'media', 'images', 'fotos', 'bilder', 'attachments'];

/** `field`: the gallery field the photos go to; `gallery`: it is the topic's own (else a placeholder to correct). */
export async function guessMedia(
  tablePath: string,
  columns: readonly string[],
  sample: readonly SourceRow[],
  field: string,
  gallery: boolean,
  archive?: TableArchive,
): Promise<MediaGuess> {
  const names = (column: string) => sample.flatMap((row) => cellNames(row.values[column]));
  const webColumns = columns.filter((column) =>
    names(column).some(
      (name) => isWebAddress(name) && (PHOTO.test(name.replace(/#.*$/, '')) || PHOTO.test(name.replace(/[?#].*$/, '')) || /_url$/i.test(column)),
    ),
  );
  const fileColumns = columns.filter((column) => !webColumns.includes(column) && names(column).some((name) => PHOTO.test(name)));
  // A column of addresses beside the column of its files (KoBoToolbox's photo and photo_URL): the files are taken.
  const twinOf = (column: string) => fileColumns.find((candidate) => candidate === column.replace(/_url$/i, ''));
  const fetched = webColumns.filter((column) => !twinOf(column));
  const notes = webColumns
    .filter((column) => twinOf(column))
    .map((column) => l10n.t('media: not the column {0}, whose web addresses are the photos the column {1} names as files', column, twinOf(column)!));
  const taken = [...fileColumns, ...webColumns];
  if (fileColumns.length === 0 && fetched.length === 0) return { taken, notes };
  if (fileColumns.length === 0) {
    // Only addresses (iNaturalist's image_url, Epicollect5's photo columns): the import fetches them.
    notes.unshift(
      gallery
        ? l10n.t(
            'media: {0} from the column {1}: each photo fetched from its web address when imported (kept in .spot-import/downloads/)',
            field,
            fetched.join(', '),
          )
        : l10n.t(
            "media: {0} from the column {1}: each photo fetched from its web address when imported (kept in .spot-import/downloads/); name the topic's gallery field",
            field,
            fetched.join(', '),
          ),
    );
    if (fetched.some((column) => /_URL$/.test(column))) {
      const host = fetched.flatMap(names).map(hostOfAddress).find(Boolean) ?? 'kf.kobotoolbox.org';
      notes.push(
        l10n.t(
          'media: KoBoToolbox\'s addresses need a login: add "headers": {"Authorization": {"env": "KOBO_TOKEN", "host": "{0}"}} and set KOBO_TOKEN to "Token <your API token>"',
          host,
        ),
      );
    }
    return { media: { columns: fetched }, taken, notes };
  }
  const place = archive
    ? { folder: archivePhotoFolder(archive, fileColumns.flatMap(names), sample) }
    : await photoFolder(tablePath, fileColumns.flatMap(names));
  const { folder } = place;
  notes.unshift(mediaNote(field, fileColumns, folder, gallery), ...('notes' in place ? place.notes : []));
  for (const column of fetched) notes.push(l10n.t('media: the column {0} holds web addresses: add it to the columns to have its photos fetched too', column));
  return { media: { columns: fileColumns, ...(folder ? { folder } : {}) }, taken, notes };
}

/** The names a cell holds, split at ";" as the mapping's default separator does. */
function cellNames(value: unknown): string[] {
  return typeof value === 'string'
    ? value
        .split(';')
        .map((name) => name.trim())
        .filter(Boolean)
    : [];
}

/**
 * Where the photos are: among the table's sibling folders named like photo folders (in any case:
 * "Fotos" as a German export spells it), the first that holds a file the cells name; else the
 * table's own folder, or the folder below it that holds one. A file is looked for as the import
 * looks for it (folderPhotos): below the folder too, in an unpacked export's folder per submission.
 * Not merely the first folder that exists: a project may keep another table's photos/ beside this
 * one's Fotos/. When none holds one, the first such folder is proposed for the user to fill, and
 * the notes say that none holds them.
 */
async function photoFolder(tablePath: string, names: readonly string[]): Promise<{ folder: string | undefined; notes: string[] }> {
  const dir = dirname(tablePath);
  const folders = (await readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isDirectory() && PHOTO_FOLDERS.includes(entry.name.toLowerCase()))
    .map((entry) => entry.name)
    .sort((a, b) => PHOTO_FOLDERS.indexOf(a.toLowerCase()) - PHOTO_FOLDERS.indexOf(b.toLowerCase()));
  // Where the cells put them first, in every folder, before any folder is listed for their names.
  const lookups = new Map([...folders, '.'].map((candidate) => [candidate, folderPhotos(join(dir, candidate))]));
  for (const below of [false, true]) {
    for (const [candidate, photos] of lookups) {
      const found = await firstFound(photos, names, below);
      if (found === undefined) continue;
      // Below the table's own folder, in a folder not named like a photo folder: that folder.
      const slash = found.indexOf('/');
      const [folder, entry] = below && candidate === '.' && slash > 0 ? [found.slice(0, slash), found.slice(slash + 1)] : [candidate, found];
      const notes =
        below && entry.includes('/')
          ? [
              l10n.t(
                "media: the files are in folders below {0}/ (a folder per submission): each is found by its name, in the folder of its row's submission when several hold it",
                folder,
              ),
            ]
          : [];
      return { folder: folder !== '.' ? folder : undefined, notes };
    }
  }
  const none =
    folders.length > 0
      ? l10n.t(
          'media: none of the photos the cells name is in {0} or beside the table: put them in {1}/, or set "folder" to where they are',
          folders.map((folder) => `${folder}/`).join(', '),
          folders[0],
        )
      : l10n.t('media: none of the photos the cells name is beside the table: put them there, or set "folder" to where they are');
  return { folder: folders[0], notes: [none] };
}

/** The entry of the first of `names` found where its cell puts it, or (`below`) by its name below the folder, as the import finds it. */
async function firstFound(photos: PhotoLookup, names: readonly string[], below: boolean): Promise<string | undefined> {
  for (const name of names) {
    if (!below) {
      const entry = await photos.where(name);
      if (entry !== undefined) return entry;
      continue;
    }
    const found = await photos.find(name, {});
    if ('entry' in found) return found.entry;
    if ('ambiguous' in found) return found.ambiguous[0];
  }
  return undefined;
}

/**
 * Where the photos are in the table's archive: the folder that holds every photo of the sample
 * the archive has (ODK Central's media/; above KoBoToolbox's folder per submission, the folder
 * holding those), undefined at the archive's top.
 */
function archivePhotoFolder(archive: TableArchive, names: readonly string[], sample: readonly SourceRow[]): string | undefined {
  // Compared composed, as the lookup compares them (photoLookup.ts).
  const wanted = new Set(names.map((name) => posix.basename(name).normalize('NFC')));
  const folders = archive
    .names()
    .filter((entry) => wanted.has(posix.basename(entry).normalize('NFC')) && !isLeftBehind(entry))
    .map((entry) =>
      posix
        .dirname(entry)
        .split('/')
        .filter((segment) => segment !== '.'),
    );
  if (folders.length === 0) return undefined;
  let common = folders[0];
  for (const folder of folders.slice(1)) {
    let same = 0;
    while (same < common.length && common[same] === folder[same]) same++;
    common = common.slice(0, same);
  }
  // A folder named after a row's cell (a submission's _uuid) is that row's own, not the photos' folder.
  const cells = new Set(sample.flatMap((row) => [...rowTexts(row.values)]));
  while (common.length > 0 && cells.has(common[common.length - 1].normalize('NFC'))) common = common.slice(0, -1);
  return common.length > 0 ? common.join('/') : undefined;
}

/** "media: fld_7_3 from the column photo, files in photos/": each case a whole sentence. */
function mediaNote(field: string, columns: readonly string[], folder: string | undefined, gallery: boolean): string {
  const names = columns.join(', ');
  if (columns.length > 1) {
    if (folder) {
      return gallery
        ? l10n.t('media: {0} from the columns {1}, files in {2}/', field, names, folder)
        : l10n.t("media: {0} from the columns {1}, files in {2}/: name the topic's gallery field", field, names, folder);
    }
    return gallery
      ? l10n.t('media: {0} from the columns {1} (files beside the mapping)', field, names)
      : l10n.t("media: {0} from the columns {1} (files beside the mapping): name the topic's gallery field", field, names);
  }
  if (folder) {
    return gallery
      ? l10n.t('media: {0} from the column {1}, files in {2}/', field, names, folder)
      : l10n.t("media: {0} from the column {1}, files in {2}/: name the topic's gallery field", field, names, folder);
  }
  return gallery
    ? l10n.t('media: {0} from the column {1} (files beside the mapping)', field, names)
    : l10n.t("media: {0} from the column {1} (files beside the mapping): name the topic's gallery field", field, names);
}
