// A small valid JPEG (one grey pixel) with an EXIF APP1 segment written here byte by byte, so a
// test's expected values come from what it asked for, not from the EXIF library the reader uses:
// the TIFF header, IFD0 with its pointers to the Exif and GPS IFDs, and their entries (RATIONAL
// degrees, minutes and seconds; ASCII references, times and offsets) as the TIFF 6.0 and Exif 2.32
// specifications lay them out, in either byte order.

/** A rational number as TIFF writes it: numerator / denominator, each an unsigned 32-bit integer. */
export type Rational = [number, number];

export interface ExifPhoto {
  gps?: {
    latitudeRef?: 'N' | 'S';
    /** Degrees, minutes, seconds: each a whole number, or a rational for a fraction (seconds in hundredths: [1644, 100]). */
    latitude: Array<number | Rational>;
    longitudeRef?: 'E' | 'W';
    longitude: Array<number | Rational>;
    /** Metres, and 1 for below sea level (GPSAltitudeRef). */
    altitude?: Rational;
    altitudeRef?: 0 | 1;
    /** Degrees (GPSImgDirection), and 'T' (true north) or 'M' (magnetic). */
    direction?: Rational;
    directionRef?: 'T' | 'M';
  };
  /** DateTimeOriginal as EXIF writes it: "2026:03:27 14:30:05". */
  taken?: string;
  /** OffsetTimeOriginal: "+01:00". */
  offset?: string;
  /** 'II' (Intel, little-endian: most cameras and phones) or 'MM' (Motorola, big-endian). */
  byteOrder?: 'II' | 'MM';
  /** Bytes of comment segments after the EXIF segment, to make a file the size of a real photo. */
  padding?: number;
}

const TYPE = { BYTE: 1, ASCII: 2, LONG: 4, RATIONAL: 5 } as const;

interface Entry {
  tag: number;
  type: number;
  count: number;
  /** The value's bytes in the file's byte order. */
  value: Buffer;
}

class Writer {
  constructor(private readonly little: boolean) {}

  u16(value: number): Buffer {
    const buffer = Buffer.alloc(2);
    if (this.little) buffer.writeUInt16LE(value);
    else buffer.writeUInt16BE(value);
    return buffer;
  }

  u32(value: number): Buffer {
    const buffer = Buffer.alloc(4);
    if (this.little) buffer.writeUInt32LE(value);
    else buffer.writeUInt32BE(value);
    return buffer;
  }

  ascii(tag: number, text: string): Entry {
    const value = Buffer.from(`${text}\0`, 'latin1');
    return { tag, type: TYPE.ASCII, count: value.length, value };
  }

  bytes(tag: number, values: number[]): Entry {
    return { tag, type: TYPE.BYTE, count: values.length, value: Buffer.from(values) };
  }

  long(tag: number, value: number): Entry {
    return { tag, type: TYPE.LONG, count: 1, value: this.u32(value) };
  }

  rationals(tag: number, values: Array<number | Rational>): Entry {
    const parts = values.map((value) => (typeof value === 'number' ? ([value, 1] as Rational) : value));
    return { tag, type: TYPE.RATIONAL, count: parts.length, value: Buffer.concat(parts.flatMap(([top, bottom]) => [this.u32(top), this.u32(bottom)])) };
  }

  /** An IFD at `offset` (from the TIFF header's start): its entries by tag, values over 4 bytes after it, word-aligned. */
  ifd(entries: Entry[], offset: number): Buffer {
    const sorted = [...entries].sort((a, b) => a.tag - b.tag);
    let dataOffset = offset + 2 + 12 * sorted.length + 4;
    const table: Buffer[] = [this.u16(sorted.length)];
    const data: Buffer[] = [];
    for (const entry of sorted) {
      table.push(this.u16(entry.tag), this.u16(entry.type), this.u32(entry.count));
      if (entry.value.length <= 4) {
        table.push(Buffer.concat([entry.value, Buffer.alloc(4 - entry.value.length)]));
      } else {
        table.push(this.u32(dataOffset));
        const padded = entry.value.length % 2 === 0 ? entry.value : Buffer.concat([entry.value, Buffer.alloc(1)]);
        data.push(padded);
        dataOffset += padded.length;
      }
    }
    table.push(this.u32(0));
    return Buffer.concat([...table, ...data]);
  }
}

/** The TIFF structure of the APP1 segment: header, IFD0, then the Exif and GPS IFDs it points to. */
export function exifTiff(photo: ExifPhoto): Buffer {
  const little = (photo.byteOrder ?? 'II') === 'II';
  const w = new Writer(little);
  const exifEntries: Entry[] = [];
  if (photo.taken !== undefined) exifEntries.push(w.ascii(0x9003, photo.taken));
  if (photo.offset !== undefined) exifEntries.push(w.ascii(0x9011, photo.offset));
  const gpsEntries: Entry[] = [];
  const gps = photo.gps;
  if (gps) {
    gpsEntries.push(w.bytes(0x0000, [2, 3, 0, 0]));
    if (gps.latitudeRef) gpsEntries.push(w.ascii(0x0001, gps.latitudeRef));
    gpsEntries.push(w.rationals(0x0002, gps.latitude));
    if (gps.longitudeRef) gpsEntries.push(w.ascii(0x0003, gps.longitudeRef));
    gpsEntries.push(w.rationals(0x0004, gps.longitude));
    if (gps.altitude) {
      gpsEntries.push(w.bytes(0x0005, [gps.altitudeRef ?? 0]));
      gpsEntries.push(w.rationals(0x0006, [gps.altitude]));
    }
    if (gps.direction) {
      gpsEntries.push(w.ascii(0x0010, gps.directionRef ?? 'T'));
      gpsEntries.push(w.rationals(0x0011, [gps.direction]));
    }
  }
  // IFD0 holds a camera's make and the pointers; its size is known before the offsets it points to.
  const make = w.ascii(0x010f, 'Spot Import Test');
  const pointerCount = (exifEntries.length > 0 ? 1 : 0) + (gpsEntries.length > 0 ? 1 : 0);
  const ifd0Size = w.ifd([make, ...Array.from({ length: pointerCount }, (_, index) => w.long(0x8769 + index, 0))], 8).length;
  let next = 8 + ifd0Size;
  const pointers: Entry[] = [];
  const blocks: Buffer[] = [];
  if (exifEntries.length > 0) {
    pointers.push(w.long(0x8769, next));
    const block = w.ifd(exifEntries, next);
    blocks.push(block);
    next += block.length;
  }
  if (gpsEntries.length > 0) {
    pointers.push(w.long(0x8825, next));
    blocks.push(w.ifd(gpsEntries, next));
  }
  const header = Buffer.concat([Buffer.from(little ? 'II' : 'MM', 'latin1'), w.u16(42), w.u32(8)]);
  const ifd0 = w.ifd([make, ...pointers], 8);
  if (ifd0.length !== ifd0Size) throw new Error('IFD0 changed size');
  return Buffer.concat([header, ifd0, ...blocks]);
}

/** A marker segment: FF xx, its length (itself included, big-endian), its bytes. */
function segment(marker: number, body: Buffer): Buffer {
  if (body.length + 2 > 0xffff) throw new Error('a segment holds at most 65533 bytes');
  const head = Buffer.alloc(4);
  head.writeUInt8(0xff, 0);
  head.writeUInt8(marker, 1);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

/**
 * A baseline JPEG of one grey pixel: quantisation table of ones, a DC and an AC Huffman table of
 * one one-bit code each (DC difference category 0; end of block), and the scan "00" padded with ones.
 */
const PIXEL = Buffer.concat([
  segment(0xdb, Buffer.concat([Buffer.from([0x00]), Buffer.alloc(64, 1)])),
  segment(0xc0, Buffer.from([8, 0, 1, 0, 1, 1, 1, 0x11, 0])),
  segment(0xc4, Buffer.concat([Buffer.from([0x00, 1]), Buffer.alloc(15), Buffer.from([0])])),
  segment(0xc4, Buffer.concat([Buffer.from([0x10, 1]), Buffer.alloc(15), Buffer.from([0])])),
  segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
  Buffer.from([0x3f, 0xff, 0xd9]),
]);

/** The JPEG's bytes: SOI, APP1 (Exif), the padding's comment segments, the pixel, EOI. */
export function exifJpeg(photo: ExifPhoto = {}): Buffer {
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8])];
  if (photo.gps || photo.taken !== undefined || photo.offset !== undefined)
    parts.push(segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifTiff(photo)])));
  for (let left = photo.padding ?? 0; left > 0; left -= 60_000) parts.push(segment(0xfe, Buffer.alloc(Math.min(left, 60_000), 0x20)));
  parts.push(PIXEL);
  return Buffer.concat(parts);
}

/** Degrees, minutes and seconds (each n or [numerator, denominator]) as decimal degrees, the reference's sign applied. */
export function decimalDegrees(parts: Array<number | Rational>, ref: string | undefined): number {
  const [degrees, minutes, seconds] = parts.map((part) => (typeof part === 'number' ? part : part[0] / part[1]));
  const value = degrees + (minutes ?? 0) / 60 + (seconds ?? 0) / 3600;
  return ref === 'S' || ref === 'W' ? -value : value;
}
