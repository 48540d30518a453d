// What a .json file is, from its first bytes only: a layer (a GeoJSON FeatureCollection or
// Feature, or one JSON object per line), a spot document, or JSON of a kind that is known and not
// read (fileFormats.ts says what each is). A .json name says nothing of its content, and a folder
// of spot documents names thousands of them: this reads SNIFF_BYTES once per file (remembered
// while the file's size and time stay the same), and stops at the first member that decides,
// which for a spot document is its first ("data"). Only node:fs, so the editor knows a .json
// table without loading the rows bundle (mappingPath.ts).
import { closeSync, openSync, readSync, statSync } from 'node:fs';

export type JsonContent =
  /** A GeoJSON FeatureCollection or Feature: read as a layer. */
  | 'geojson'
  /** One JSON object per line (NDJSON, GeoJSON text sequences). */
  | 'ndjson'
  /** An object with a `data` member: a spot document. */
  | 'spot'
  /** ArcGIS's own JSON of features (`geometryType`, `spatialReference`, `fields` beside `features`). */
  | 'esriJson'
  /** KoBoToolbox's API reply: `{"count": …, "next": …, "previous": …, "results": [ … ]}`. */
  | 'koboApi'
  /** An array of objects. */
  | 'jsonArray';

/** Enough for the members a layer's root has before its features (name, crs, bbox, metadata): one read. */
const SNIFF_BYTES = 16 * 1024;

/** Root members of ArcGIS's JSON of features, which is no GeoJSON though it has `features`. */
const ESRI_MEMBERS = new Set(['geometryType', 'spatialReference', 'fields', 'displayFieldName', 'fieldAliases', 'objectIdFieldName', 'globalIdFieldName']);

/** The sniffs of files already looked at, by path, with the size and time they were made for. */
const remembered = new Map<string, { size: number; mtimeMs: number; content: JsonContent | undefined }>();
const REMEMBERED_FILES = 4096;

/**
 * What the .json file at `path` is (undefined: none of the kinds, or not said by its first bytes;
 * such a file is read as a spot document, which says what is wrong with it).
 */
export function jsonFileContent(path: string): JsonContent | undefined {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats?.isFile()) return undefined;
  const known = remembered.get(path);
  if (known && known.size === stats.size && known.mtimeMs === stats.mtimeMs) return known.content;
  const content = sniffJsonBytes(firstBytes(path, Math.min(stats.size, SNIFF_BYTES)));
  if (remembered.size >= REMEMBERED_FILES) remembered.delete(remembered.keys().next().value!);
  remembered.set(path, { size: stats.size, mtimeMs: stats.mtimeMs, content });
  return content;
}

/** One buffer for every sniff: each is read and looked at before the next (all of it synchronous). */
let sniffBuffer: Buffer | undefined;

function firstBytes(path: string, length: number): Buffer {
  const buffer = (sniffBuffer ??= Buffer.allocUnsafe(SNIFF_BYTES));
  let descriptor: number;
  try {
    descriptor = openSync(path, 'r');
  } catch {
    return buffer.subarray(0, 0);
  }
  try {
    return buffer.subarray(0, readSync(descriptor, buffer, 0, length, 0));
  } catch {
    return buffer.subarray(0, 0);
  } finally {
    closeSync(descriptor);
  }
}

/** The first bytes of a file as text: UTF-16 by its byte-order mark, else each byte a character (the punctuation and names looked at are ASCII). */
function sniffJsonBytes(bytes: Uint8Array): JsonContent | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return sniffJsonText(buffer.subarray(2).toString('utf16le'));
  if (buffer[0] === 0xfe && buffer[1] === 0xff) {
    const swapped = Buffer.from(buffer.subarray(2, 2 + ((buffer.length - 2) & ~1)));
    return sniffJsonText(swapped.swap16().toString('utf16le'));
  }
  return sniffJsonText(buffer.toString('latin1'));
}

/**
 * What JSON text is, by its start (the text may be cut anywhere): its root's members are followed
 * one at a time, each value passed over by its brackets and strings, until one decides.
 */
export function sniffJsonText(text: string): JsonContent | undefined {
  const scan = new Sniffer(text);
  scan.skipBlank();
  const first = scan.peek();
  // RFC 8142's record separator starts every line of a GeoJSON text sequence.
  if (first === '\u001e') return 'ndjson';
  if (first === '[') {
    scan.next();
    scan.skipBlank();
    return scan.peek() === '{' ? 'jsonArray' : undefined;
  }
  if (first !== '{') return undefined;
  scan.next();
  const names = new Set<string>();
  for (;;) {
    scan.skipBlank();
    if (scan.peek() === '}') {
      // The root ends: another object after it is the next line of NDJSON.
      scan.next();
      scan.skipBlank();
      const after = scan.peek();
      return after === '{' || after === '\u001e' ? 'ndjson' : undefined;
    }
    const name = scan.string();
    if (name === undefined) return undefined;
    scan.skipBlank();
    if (scan.peek() !== ':') return undefined;
    scan.next();
    scan.skipBlank();
    const opens = scan.peek();
    if (name === 'data') return 'spot';
    if (name === 'type' && opens === '"') {
      const type = scan.string();
      if (type === 'FeatureCollection' || type === 'Feature') return 'geojson';
      if (type === undefined) return undefined;
    } else if (name === 'features' && opens === '[') {
      return [...names].some((seen) => ESRI_MEMBERS.has(seen)) ? 'esriJson' : 'geojson';
    } else if (name === 'results' && opens === '[' && names.has('count')) {
      return 'koboApi';
    } else if (!scan.skipValue()) return undefined;
    names.add(name);
    scan.skipBlank();
    if (scan.peek() === ',') scan.next();
    else if (scan.peek() !== '}') return undefined;
  }
}

/** A cursor over the text: JSON's whitespace, strings with their escapes, values by their brackets. */
class Sniffer {
  private at = 0;

  constructor(private readonly text: string) {}

  peek(): string | undefined {
    return this.at < this.text.length ? this.text[this.at] : undefined;
  }

  next(): void {
    this.at++;
  }

  /** Whitespace, and a byte-order mark (as UTF-8's three bytes read one a character, or as one). */
  skipBlank(): void {
    const text = this.text;
    for (;;) {
      const code = text.charCodeAt(this.at);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0xfeff) this.at++;
      else if (code === 0xef && text.charCodeAt(this.at + 1) === 0xbb && text.charCodeAt(this.at + 2) === 0xbf) this.at += 3;
      else return;
    }
  }

  /** A string's content (escapes kept as written: the names and values compared have none), or undefined when none is here or it is cut off. */
  string(): string | undefined {
    if (this.peek() !== '"') return undefined;
    const start = this.at + 1;
    const end = this.stringEnd(start);
    if (end < 0) return undefined;
    this.at = end + 1;
    return this.text.slice(start, end);
  }

  /** Where the string whose content starts at `from` closes, or -1 when the text ends first. */
  private stringEnd(from: number): number {
    const text = this.text;
    for (let i = from; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x5c) i++;
      else if (code === 0x22) return i;
    }
    return -1;
  }

  /** Passes over one value; false when the text ends inside it. */
  skipValue(): boolean {
    const text = this.text;
    const first = this.peek();
    if (first === undefined) return false;
    if (first === '"') return this.string() !== undefined;
    if (first !== '{' && first !== '[') {
      while (this.at < text.length && !',}] \t\r\n'.includes(text[this.at])) this.at++;
      return this.at < text.length;
    }
    let depth = 0;
    for (let i = this.at; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i = this.stringEnd(i + 1);
        if (i < 0) return false;
      } else if (code === 0x7b || code === 0x5b) depth++;
      else if (code === 0x7d || code === 0x5d) {
        if (--depth === 0) {
          this.at = i + 1;
          return true;
        }
      }
    }
    return false;
  }
}
