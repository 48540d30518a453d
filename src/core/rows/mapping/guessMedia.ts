// The proposed media of a table: the columns whose cells name photo files, and the folder beside
// the table that holds them; else a column of web addresses (iNaturalist's image_url), whose photos
// the import fetches. A column of addresses beside the column of its files (KoBoToolbox's
// photo_URL beside photo) is left out: the files are taken.
import { existsSync, readdirSync, type Dirent } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { l10n } from '../../text/l10n';
import type { SourceRow, TableArchive } from '../read';
import type { MediaMapping } from './mappingSchema';
import { isWebAddress } from './webAddress';
import { hostOfAddress } from '../../media/remote/photoAddress';

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
export function guessMedia(
  tablePath: string,
  columns: readonly string[],
  sample: readonly SourceRow[],
  field: string,
  gallery: boolean,
  archive?: TableArchive,
): MediaGuess {
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
  const folder = archive ? archivePhotoFolder(archive, fileColumns.flatMap(names), sample) : photoFolder(tablePath, fileColumns.flatMap(names));
  notes.unshift(mediaNote(field, fileColumns, folder, gallery));
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
 * "Fotos" as a German export spells it), the one that holds a file the cells name; none when they
 * are beside the table; else the first such folder, for the user to check. Not merely the first
 * folder that exists: a project may keep another table's photos/ beside this one's Fotos/.
 */
function photoFolder(tablePath: string, names: readonly string[]): string | undefined {
  const dir = dirname(tablePath);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const folders = entries
    .filter((entry) => entry.isDirectory() && PHOTO_FOLDERS.includes(entry.name.toLowerCase()))
    .map((entry) => entry.name)
    .sort((a, b) => PHOTO_FOLDERS.indexOf(a.toLowerCase()) - PHOTO_FOLDERS.indexOf(b.toLowerCase()));
  const holds = (folder: string) => names.some((name) => existsSync(join(dir, folder, name)));
  return folders.find(holds) ?? (holds('.') ? undefined : folders[0]);
}

/**
 * Where the photos are in the table's archive: the folder that holds every photo of the sample
 * the archive has (ODK Central's media/; above KoBoToolbox's folder per submission, the folder
 * holding those), undefined at the archive's top.
 */
function archivePhotoFolder(archive: TableArchive, names: readonly string[], sample: readonly SourceRow[]): string | undefined {
  const wanted = new Set(names.map((name) => posix.basename(name)));
  const folders = archive
    .names()
    .filter((entry) => wanted.has(posix.basename(entry)) && !entry.startsWith('__MACOSX/'))
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
  const cells = new Set(sample.flatMap((row) => Object.values(row.values).map((value) => String(value).replace(/^uuid:/, ''))));
  while (common.length > 0 && cells.has(common[common.length - 1])) common = common.slice(0, -1);
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
