// A layer's attributes (its .dbf, dBASE III as shapefiles carry it): the header's layout, then the
// records a chunk at a time, from a file or from bytes, each field's text made a value by its type.
// Read here rather than by the shapefile library, whose reader makes a date local midnight (a day
// early once shown as UTC east of Greenwich), a blank date 30 November 1899, and hands on the
// records a tool marked deleted.
import { open as openFile } from 'node:fs/promises';
import { l10n } from '../../../text/l10n';
import { memberSetter } from '../ownMembers';
import { TableReadError } from '../tableReadError';
import { textDecoding } from '../textDecoding';
import type { SourceEncoding } from '../types';

interface DbfField {
  name: string;
  /** dBASE's type letter: C text, N and F numbers, L logical, D date (YYYYMMDD), M and B memo numbers. */
  type: string;
  width: number;
}

export interface DbfLayout {
  fields: DbfField[];
  /** Where the first record starts. */
  headerBytes: number;
  recordBytes: number;
}

export interface DbfRecord {
  /** Marked deleted ("*"): the tool that wrote the layer has not packed it yet. */
  deleted: boolean;
  values: Record<string, unknown>;
}

/** The header's layout: its field descriptors (32 bytes each after the 32-byte header, ended by 0x0D). */
export function dbfLayout(path: string, dbfName: string, header: Buffer, encoding: SourceEncoding): DbfLayout {
  const notDbf = () => new TableReadError(path, l10n.t('its attributes ({0}) are not a DBF file', dbfName));
  if (header.length < 33) throw notDbf();
  const decode = fieldDecoder(encoding);
  const fields: DbfField[] = [];
  for (let offset = 32; offset + 32 <= header.length && header[offset] !== 0x0d; offset += 32) {
    const raw = header.subarray(offset, offset + 11);
    const end = raw.indexOf(0);
    fields.push({ name: decode(end < 0 ? raw : raw.subarray(0, end)), type: String.fromCharCode(header[offset + 11]), width: header[offset + 16] });
  }
  return { fields, headerBytes: header.readUInt16LE(8), recordBytes: header.readUInt16LE(10) };
}

/** Records until the end-of-file mark or the file's end; a record cut short is not one. */
export async function* dbfRecords(dbf: string | Uint8Array, layout: DbfLayout, encoding: SourceEncoding): AsyncGenerator<DbfRecord> {
  const decode = fieldDecoder(encoding);
  const set = memberSetter(layout.fields.map((field) => field.name));
  for await (const record of recordBytes(dbf, layout)) {
    if (record[0] === 0x1a) return;
    const values: Record<string, unknown> = {};
    let at = 1;
    for (const field of layout.fields) {
      set(values, field.name, fieldValue(field.type, decode(record.subarray(at, at + field.width))));
      at += field.width;
    }
    yield { deleted: record[0] === 0x2a, values };
  }
}

/** The records' bytes, a record at a time: from bytes in place, or from the file a few hundred records per read. */
async function* recordBytes(dbf: string | Uint8Array, { headerBytes, recordBytes: size }: DbfLayout): AsyncGenerator<Uint8Array> {
  if (typeof dbf !== 'string') {
    for (let at = headerBytes; at + size <= dbf.length; at += size) yield dbf.subarray(at, at + size);
    return;
  }
  const handle = await openFile(dbf, 'r');
  try {
    const chunk = Buffer.alloc(size * Math.max(1, Math.floor((256 * 1024) / size)));
    for (let position = headerBytes; ;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      for (let at = 0; at + size <= bytesRead; at += size) yield chunk.subarray(at, at + size);
      if (bytesRead < chunk.length) return;
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** A field's text as a value: numbers and logicals as such, a date as YYYY-MM-DD, anything blank (or a date of zeros) as ''. */
function fieldValue(type: string, text: string): unknown {
  const value = text.trim();
  switch (type) {
    case 'N':
    case 'F':
    case 'M':
    case 'B':
      return value === '' || Number.isNaN(Number(value)) ? '' : Number(value);
    case 'L':
      return /^[yt]$/i.test(value) ? true : /^[nf]$/i.test(value) ? false : '';
    case 'D':
      if (/^0*$/.test(value)) return '';
      // Not 8 digits: the text as it is, for the mapping's date rule to say what is wrong with it.
      return /^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}` : value;
    default:
      return value;
  }
}

/**
 * A field's bytes as text: the table readers' decoding (textDecoding.ts: windows-1252's 0x80–0x9F
 * as €, „ and the rest, which Node's TextDecoder before 24 reads as ISO-8859-1), except UTF-8, read
 * leniently: a writer that cut a fixed-width field inside a character leaves U+FFFD there, not a
 * layer whose features after it cannot be read.
 */
function fieldDecoder(encoding: SourceEncoding): (bytes: Uint8Array) => string {
  if (encoding === 'utf-8') {
    const utf8 = new TextDecoder('utf-8');
    return (bytes) => utf8.decode(bytes);
  }
  const decoding = textDecoding(encoding);
  return (bytes) => decoding.decode(bytes, true);
}
