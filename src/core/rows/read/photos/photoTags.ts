// What a photo's EXIF tags say of where and when it was taken: the GPS position (degrees, minutes
// and seconds with their N/S and E/W references), the altitude (negative below sea level), the
// direction the camera faced, and DateTimeOriginal as ISO text, with OffsetTimeOriginal when the
// camera wrote one (a local time without it, for the mapping's inputTimezone). Read by exifr from
// the file's head only: its first 64 KiB, and a further chunk only where the tags go on (a HEIC's
// Exif item further in); never the picture itself. exifr is loaded when the first photo is read.
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

const COORDINATE_DECIMALS = 7;

/** The photo's tags, or why they cannot be read (exifr's words: not an image it knows, a broken file). No tags at all is no problem: an empty result. */
export async function readPhotoTags(path: string): Promise<PhotoTags | { problem: string }> {
  const exifr = require('exifr') as typeof import('exifr');
  let tags: Record<string, unknown> | undefined;
  try {
    tags = (await exifr.parse(path, OPTIONS)) as Record<string, unknown> | undefined;
  } catch (error) {
    return { problem: (error as Error).message };
  }
  return tags ? photoTagsOf(tags) : {};
}

/** The tags exifr gives (names as EXIF has them, values as written) as what a row takes of them. */
function photoTagsOf(tags: Record<string, unknown>): PhotoTags {
  const result: PhotoTags = {};
  const latitude = degreesOf(tags.GPSLatitude, tags.GPSLatitudeRef, 'S');
  const longitude = degreesOf(tags.GPSLongitude, tags.GPSLongitudeRef, 'W');
  // 0° 0°: what some cameras write before they have a fix, not a place.
  if (latitude !== undefined && longitude !== undefined && !(latitude === 0 && longitude === 0)) {
    result.latitude = round(latitude);
    result.longitude = round(longitude);
  }
  const altitude = numberOf(tags.GPSAltitude);
  if (altitude !== undefined) result.altitude = firstByte(tags.GPSAltitudeRef) === 1 ? -altitude : altitude;
  const direction = numberOf(tags.GPSImgDirection);
  if (direction !== undefined) result.direction = direction;
  const taken = takenOf(tags.DateTimeOriginal, tags.OffsetTimeOriginal);
  if (taken !== undefined) result.taken = taken;
  return result;
}

/** [degrees, minutes, seconds] (or fewer: minutes with their fraction) and the reference whose letter makes it negative. */
function degreesOf(parts: unknown, ref: unknown, negative: 'S' | 'W'): number | undefined {
  const values = Array.isArray(parts) ? parts : typeof parts === 'number' ? [parts] : [];
  if (values.length === 0 || values.length > 3 || !values.every((part) => typeof part === 'number' && Number.isFinite(part) && part >= 0)) return undefined;
  const [degrees, minutes = 0, seconds = 0] = values as number[];
  const value = degrees + minutes / 60 + seconds / 3600;
  return typeof ref === 'string' && ref.trim().toUpperCase() === negative ? -value : value;
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
  const scale = 10 ** COORDINATE_DECIMALS;
  return Math.round(value * scale) / scale;
}
