// What a photo's EXIF tags say of where and when it was taken: the GPS position (degrees, minutes
// and seconds with their N/S and E/W references), the altitude (negative below sea level), the
// direction the camera faced, and DateTimeOriginal as ISO text, with OffsetTimeOriginal when the
// camera wrote one (a local time without it, for the mapping's inputTimezone). Read by exifr from
// the file's head only: its first 64 KiB, and a further chunk only where the tags go on (a HEIC's
// Exif item further in); never the picture itself. exifr is loaded when the first photo is read.
import { stat } from 'node:fs/promises';
import { l10n } from '../../../text/l10n';
import { whyUnreadable } from '../unreadableFile';
import { jpegCutInHeader } from './jpegHeader';
import { roundCoordinate, TRANSFORMED_DECIMALS } from '../../../geo/coordinateDecimals';

export interface PhotoTags {
  /** Decimal degrees, rounded to 7 decimals (about a centimetre): both or neither. */
  latitude?: number;
  longitude?: number;
  /** Metres above sea level (below it: negative). */
  altitude?: number;
  /** Degrees from north (GPSImgDirection), as the camera wrote it. */
  direction?: number;
  /** "2026-03-27T14:30:05+01:00", or without the offset when the photo has none. */
  taken?: string;
  /** What the position takes on trust: a hemisphere the tags do not record. */
  warning?: string;
}

const GPS_TAGS = ['GPSLatitudeRef', 'GPSLatitude', 'GPSLongitudeRef', 'GPSLongitude', 'GPSAltitudeRef', 'GPSAltitude', 'GPSImgDirection'];

/**
 * exifr's options: the Exif and GPS tags wanted and nothing else (no XMP, ICC, IPTC, thumbnail),
 * values as written (a date as its text, not a Date in this machine's zone). One object, so exifr
 * builds its parsed options once (it caches them by this object).
 */
const OPTIONS = {
  tiff: true,
  ifd1: false,
  exif: { pick: ['DateTimeOriginal', 'OffsetTimeOriginal'] },
  gps: { pick: GPS_TAGS },
  interop: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  makerNote: false,
  userComment: false,
  translateValues: false,
  reviveValues: false,
  // One read of the head finds a phone's or camera's EXIF segment (at most 64 KiB) whole.
  firstChunkSize: 64 * 1024,
  chunkSize: 64 * 1024,
  chunkLimit: 4,
};

/** The part of exifr's reader this module uses: the file it read, which it may leave open when the photo is broken. */
interface ExifReader {
  read(path: string): Promise<void>;
  parse(): Promise<Record<string, unknown> | undefined>;
  /** exifr's file reader; its close() may be called at any time, and more than once. */
  file?: { close: () => unknown };
}

/**
 * The photo's tags, or why they cannot be read, in words that say what is wrong with the file (never
 * exifr's own, which name its internals). No tags at all is no problem: an empty result. exifr's
 * parse(path) leaves the file open for the garbage collector when a photo is broken, so its reader is
 * used here and closed whatever happens.
 */
export async function readPhotoTags(path: string): Promise<PhotoTags | { problem: string }> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    return { problem: whyUnreadable(error) };
  }
  if (size === 0) return { problem: l10n.t('the file is empty') };
  const exifr = require('exifr') as typeof import('exifr');
  const reader = new exifr.Exifr(OPTIONS) as unknown as ExifReader;
  let tags: Record<string, unknown> | undefined;
  try {
    await reader.read(path);
    awaitableClose(reader);
    tags = await reader.parse();
  } catch (error) {
    return { problem: (error as NodeJS.ErrnoException).code ? whyUnreadable(error) : brokenPhoto(error) };
  } finally {
    await reader.file?.close();
  }
  const result = tags ? photoTagsOf(tags) : {};
  // exifr reads on past a segment it could not (a file cut short in its EXIF tags) and lists why under
  // `errors`: without a position, that is the photo's problem, not a camera that wrote none.
  if (result.latitude === undefined && Array.isArray(tags?.errors) && tags.errors.length > 0) return { problem: brokenPhoto(tags.errors[0]) };
  // Nor does a file cut inside its EXIF segment, which exifr reads as far as it goes without a word.
  if (result.latitude === undefined && (await jpegCutInHeader(path, size))) return { problem: brokenPhoto(undefined) };
  return result;
}

/**
 * exifr's parse() closes its file without waiting for the close, and a second close() then returns at
 * once: the descriptor could still be open when the photo's row was done. Every close after the
 * first returns the first one's promise, so the close in readPhotoTags's finally waits for it.
 */
function awaitableClose(reader: ExifReader): void {
  const file = reader.file;
  if (!file) return;
  const close = file.close.bind(file);
  let closing: unknown;
  file.close = () => (closing ??= close());
}

/** Why exifr could not read a file it was given: not an image of a kind it knows, or one that is cut short or damaged. */
function brokenPhoto(error: unknown): string {
  if (error instanceof Error && error.message === 'Unknown file format') return l10n.t('it is not a JPEG, HEIC, AVIF, TIFF or PNG file');
  return l10n.t('the file is cut short or its EXIF tags are damaged');
}

/** The tags exifr gives (names as EXIF has them, values as written) as what a row takes of them. */
function photoTagsOf(tags: Record<string, unknown>): PhotoTags {
  const result: PhotoTags = {};
  const latitude = degreesOf(tags.GPSLatitude, tags.GPSLatitudeRef, 'N', 'S');
  const longitude = degreesOf(tags.GPSLongitude, tags.GPSLongitudeRef, 'E', 'W');
  // 0° 0°: what some cameras write before they have a fix, not a place.
  if (latitude !== undefined && longitude !== undefined && !(latitude.value === 0 && longitude.value === 0)) {
    result.latitude = round(latitude.value);
    result.longitude = round(longitude.value);
    const warning = hemisphereWarning(latitude.assumed, longitude.assumed);
    if (warning) result.warning = warning;
  }
  const altitude = numberOf(tags.GPSAltitude);
  if (altitude !== undefined) result.altitude = firstByte(tags.GPSAltitudeRef) === 1 ? -altitude : altitude;
  const direction = numberOf(tags.GPSImgDirection);
  if (direction !== undefined) result.direction = direction;
  const taken = takenOf(tags.DateTimeOriginal, tags.OffsetTimeOriginal);
  if (taken !== undefined) result.taken = taken;
  return result;
}

/**
 * [degrees, minutes, seconds] (or fewer: minutes with their fraction) with the sign of its reference
 * letter. Minutes or seconds of 0/0 (NaN as exifr divides them; some cameras write that for none)
 * count as 0. A reference that is neither letter (missing, blank) is taken as the positive one, and
 * `assumed` says so.
 */
function degreesOf(parts: unknown, ref: unknown, positive: 'N' | 'E', negative: 'S' | 'W'): { value: number; assumed: boolean } | undefined {
  const values = Array.isArray(parts) ? [...(parts as unknown[])] : typeof parts === 'number' ? [parts] : [];
  for (let index = 1; index < values.length; index++) if (Number.isNaN(values[index])) values[index] = 0;
  if (values.length === 0 || values.length > 3 || !values.every((part) => typeof part === 'number' && Number.isFinite(part) && part >= 0)) return undefined;
  const [degrees, minutes = 0, seconds = 0] = values as number[];
  const value = degrees + minutes / 60 + seconds / 3600;
  const letter = typeof ref === 'string' ? ref.replace(/\0/g, '').trim().toUpperCase() : '';
  return { value: letter === negative ? -value : value, assumed: letter !== positive && letter !== negative };
}

/** The warning for references the tags do not give: the place may lie in the other hemisphere. */
function hemisphereWarning(latitude: boolean, longitude: boolean): string | undefined {
  if (latitude && longitude)
    return l10n.t(
      "The photo's GPS tags do not record the hemisphere (GPSLatitudeRef and GPSLongitudeRef are missing): north and east were assumed; check the place on a map.",
    );
  if (latitude) return l10n.t("The photo's GPS tags do not record north or south (GPSLatitudeRef is missing): north was assumed; check the place on a map.");
  if (longitude) return l10n.t("The photo's GPS tags do not record east or west (GPSLongitudeRef is missing): east was assumed; check the place on a map.");
  return undefined;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A BYTE tag: a number, or (values as written) the bytes. */
function firstByte(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  return value instanceof Uint8Array && value.length > 0 ? value[0] : undefined;
}

/** "2026:03:27 14:30:05" with "+01:00" → "2026-03-27T14:30:05+01:00"; a blank or broken date (cameras write "    :  :  ") is none. */
function takenOf(dateTime: unknown, offset: unknown): string | undefined {
  const match = typeof dateTime === 'string' ? /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(dateTime.trim()) : null;
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  if (year === '0000') return undefined;
  const zone = typeof offset === 'string' && /^[+-]\d{2}:\d{2}$/.test(offset.trim()) ? offset.trim() : '';
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`;
}

function round(value: number): number {
  return roundCoordinate(value, TRANSFORMED_DECIMALS);
}
