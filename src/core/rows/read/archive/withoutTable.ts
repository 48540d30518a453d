// Why an archive gives no table when it holds none. A ZIP of photos without a table is a form
// tool's attachments download (KoBoToolbox's "media attachments": <user>/attachments/<form
// uid>/<submission uuid>/<file>), taken for the export it goes with: saying so, and how the two
// are used together, answers what "no table" alone leaves open. An archive of a format known and
// not read (a zipped FileGDB, a KML, a GeoPackage) says which entry it is and what to do instead.
import { mimeTypeOf } from '../../../files/mimeType';
import { DEFAULT_ACCEPTED_TYPES, isAcceptedType } from '../../../media/acceptedTypes';
import { l10n } from '../../../text/l10n';
import { supportedArchiveEntries, unsupportedByName, unsupportedEntryReason, type UnsupportedFormat } from '../fileFormats';

/** The reason an archive of these entries, none of them a table, is refused. */
export function noTableReason(names: readonly string[]): string {
  const known = knownEntry(names);
  if (known) return unsupportedEntryReason(known.entry, known.format);
  // Files a gallery takes, not a Finder's __MACOSX/ copies or hidden files.
  const media = names.some((name) => !/(^|\/)(__MACOSX\/|\.)/.test(name) && isAcceptedType(mimeTypeOf(name), DEFAULT_ACCEPTED_TYPES));
  return media
    ? l10n.t(
        'the archive holds media files and no table: it is the photos only, as KoBoToolbox\'s "media attachments" download is; the table is a separate download, the export as XLSX or CSV. Unpack this archive into a folder beside that table (media/, for one) and map the table: its proposed mapping finds the photos there, each in its submission\'s folder; or set the media "folder" of its mapping to that folder (an archive is not read as a media folder).',
      )
    : l10n.t('the archive holds no table ({0})', supportedArchiveEntries());
}

/** The first entry, or folder of entries (a FileGDB is a folder, trees.gdb/), of a format known and not read. */
function knownEntry(names: readonly string[]): { entry: string; format: UnsupportedFormat } | undefined {
  for (const name of names) {
    if (/(^|\/)(__MACOSX\/|\.)/.test(name)) continue;
    const parts = name.split('/').filter(Boolean);
    for (let depth = 1; depth <= parts.length; depth++) {
      const entry = parts.slice(0, depth).join('/');
      const format = unsupportedByName(entry);
      if (format) return { entry: depth < parts.length ? `${entry}/` : entry, format };
    }
  }
  return undefined;
}
