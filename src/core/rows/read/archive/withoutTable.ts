// Why an archive gives no table when it holds none. A ZIP of photos without a table is a form
// tool's attachments download (KoBoToolbox's "media attachments": <user>/attachments/<form
// uid>/<submission uuid>/<file>), taken for the export it goes with: saying so, and how the two
// are used together, answers what "no table" alone leaves open.
import { mimeTypeOf } from '../../../files/mimeType';
import { DEFAULT_ACCEPTED_TYPES, isAcceptedType } from '../../../media/acceptedTypes';
import { l10n } from '../../../text/l10n';

/** The reason an archive of these entries, none of them a table, is refused. */
export function noTableReason(names: readonly string[]): string {
  // Files a gallery takes, not a Finder's __MACOSX/ copies or hidden files.
  const media = names.some((name) => !/(^|\/)(__MACOSX\/|\.)/.test(name) && isAcceptedType(mimeTypeOf(name), DEFAULT_ACCEPTED_TYPES));
  return media
    ? l10n.t(
        'the archive holds media files and no table: it is the photos only, as KoBoToolbox\'s "media attachments" download is; the table is a separate download, the export as XLSX or CSV. Unpack this archive into a folder beside that table (media/, for one) and map the table: its proposed mapping finds the photos there, each in its submission\'s folder; or set the media "folder" of its mapping to that folder (an archive is not read as a media folder).',
      )
    : l10n.t('the archive holds no table (a .csv, .tsv, .geojson, .ndjson or .shp file)');
}
