// Why a photo a row names is not in an ODK Central export: the submission's own counts say when
// the server never got it (AttachmentsPresent below AttachmentsExpected: ODK Collect names a file
// in the form before it sends it, and a send cut off leaves the name without the file). Said after
// the plain "not in the folder", where the export is searched in vain, archive and folder alike.
import { l10n } from '../../text/l10n';

/** `message` (a photo is not where its cell says), with why when the row says ODK Central lacks attachments of it. */
export function photoMissingMessage(message: string, values: Record<string, unknown>): string {
  const present = count(values.AttachmentsPresent);
  const expected = count(values.AttachmentsExpected);
  if (present === undefined || expected === undefined || present >= expected) return message;
  return `${message} ${l10n.t(
    'ODK Central has {0} of {1} attachments of this submission: the photo never reached the server. Have the device that made the submission send it again, or fix the submission, and download the export again; or import the rows without their photos: on the command line with --no-media, in the mapping by leaving this column out of media.',
    present,
    expected,
  )}`;
}

/** A count as a CSV cell (or a number of a JSON row) holds it; anything else is no count. */
function count(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return /^\d+$/.test(text) ? Number(text) : undefined;
}
