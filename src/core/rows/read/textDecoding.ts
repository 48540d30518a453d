// Bytes to text, a piece at a time, in each encoding the reader knows (see SourceEncoding), and
// the byte-order marks that name an encoding. UTF-8 is decoded strictly: a byte that is not UTF-8
// stops the decoding where it is instead of becoming U+FFFD, which would hand on text the user
// never wrote (the spot documents' rule, src/core/documents/readDocument.ts).
import type { SourceEncoding } from './types';

const BYTE_ORDER_MARKS: ReadonlyArray<{ encoding: SourceEncoding; bytes: readonly number[] }> = [
  { encoding: 'utf-8', bytes: [0xef, 0xbb, 0xbf] },
  { encoding: 'utf-16le', bytes: [0xff, 0xfe] },
  { encoding: 'utf-16be', bytes: [0xfe, 0xff] },
];

/** The encoding a byte-order mark at the start of the bytes names, and the mark's length. */
export function byteOrderMark(bytes: Uint8Array): { encoding: SourceEncoding; length: number } | undefined {
  for (const mark of BYTE_ORDER_MARKS) {
    if (mark.bytes.every((byte, i) => bytes[i] === byte)) return { encoding: mark.encoding, length: mark.bytes.length };
  }
  return undefined;
}

/** The length of the byte-order mark of `encoding` at the start of the bytes (0 when there is none): it is never text. */
export function byteOrderMarkLength(bytes: Uint8Array, encoding: SourceEncoding): number {
  const mark = byteOrderMark(bytes);
  return mark?.encoding === encoding ? mark.length : 0;
}

/** UTF-8 decoding met a byte that is not UTF-8; `text` is what decoded before it. */
export class NotUtf8Error extends Error {
  constructor(readonly text: string) {
    super('not valid UTF-8');
    this.name = 'NotUtf8Error';
  }
}

export interface TextDecoding {
  /** The text of the next piece of bytes (a byte-order mark already cut off); `final` on the last. Throws NotUtf8Error. */
  decode(bytes: Uint8Array, final: boolean): string;
}

export function textDecoding(encoding: SourceEncoding): TextDecoding {
  switch (encoding) {
    case 'utf-8':
      return new Utf8Decoding();
    case 'latin1':
      return { decode: latin1 };
    case 'windows-1252':
      // One byte is one character: no state between pieces. Not TextDecoder('windows-1252'): Node
      // before 24 decodes that as ISO-8859-1, so 0x80 became U+0080 instead of € (nodejs/node#56542).
      return { decode: (bytes) => latin1(bytes).replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_80_9F[char.charCodeAt(0) - 0x80]) };
    case 'windows-1250':
      return { decode: (bytes) => latin1(bytes).replace(/[\u0080-\u00ff]/g, (char) => WINDOWS_1250_80_FF[char.charCodeAt(0) - 0x80]) };
    case 'macintosh':
      return { decode: (bytes) => latin1(bytes).replace(/[\u0080-\u00ff]/g, (char) => MAC_OS_ROMAN_80_FF[char.charCodeAt(0) - 0x80]) };
    case 'utf-16le':
    case 'utf-16be': {
      const decoder = new TextDecoder(encoding, { ignoreBOM: true });
      return { decode: (bytes, final) => decoder.decode(bytes, { stream: !final }) };
    }
  }
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/**
 * Where windows-1252 differs from ISO-8859-1: the characters of bytes 0x80–0x9F (the WHATWG
 * Encoding Standard's table; its five unassigned bytes stay the control characters they are in
 * ISO-8859-1).
 */
const WINDOWS_1252_80_9F = [
  '\u20ac',
  '\u0081',
  '\u201a',
  '\u0192',
  '\u201e',
  '\u2026',
  '\u2020',
  '\u2021',
  '\u02c6',
  '\u2030',
  '\u0160',
  '\u2039',
  '\u0152',
  '\u008d',
  '\u017d',
  '\u008f',
  '\u0090',
  '\u2018',
  '\u2019',
  '\u201c',
  '\u201d',
  '\u2022',
  '\u2013',
  '\u2014',
  '\u02dc',
  '\u2122',
  '\u0161',
  '\u203a',
  '\u0153',
  '\u009d',
  '\u017e',
  '\u0178',
];

/**
 * Strict UTF-8 over pieces. The bytes of a character cut at the end of a piece are held for the
 * next one here rather than in the TextDecoder, so that when a piece fails, the bytes that failed
 * are all in hand and the text before them can be given exactly.
 */
class Utf8Decoding implements TextDecoding {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private held: Uint8Array = new Uint8Array(0);

  decode(piece: Uint8Array, final: boolean): string {
    const bytes = this.held.length === 0 ? piece : Buffer.concat([this.held, piece]);
    const complete = final ? bytes.length : completeLength(bytes);
    // A copy (Buffer's slice would not be one): the caller may reuse its buffer for the next piece.
    this.held = new Uint8Array(bytes.subarray(complete));
    const whole = bytes.subarray(0, complete);
    try {
      return this.decoder.decode(whole);
    } catch {
      throw new NotUtf8Error(textBeforeInvalid(whole));
    }
  }
}

/** The length of the bytes without a character cut off at their end (at most 3 bytes of one). */
function completeLength(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/**
 * The text before the first sequence that is not UTF-8. Only on the failure path: the longest
 * prefix that decodes while streaming (which allows a sequence cut off at its end, and leaves it
 * out of the text) ends at the bad byte, found in about sixteen decodes of at most 64 KiB.
 */
function textBeforeInvalid(bytes: Uint8Array): string {
  const decodes = (length: number): boolean => {
    try {
      new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, length), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let valid = 0;
  let invalid = bytes.length;
  while (invalid - valid > 1) {
    const middle = (valid + invalid) >> 1;
    if (decodes(middle)) valid = middle;
    else invalid = middle;
  }
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, valid), { stream: true });
}

/**
 * Mac OS Roman's characters of bytes 0x80–0xFF (the WHATWG Encoding Standard's "macintosh" index,
 * Apple's ROMAN.TXT with 0xDB the euro sign). A table of our own, as for windows-1252: TextDecoder's
 * legacy encodings depend on the ICU data the runtime was built with.
 */
const MAC_OS_ROMAN_80_FF =
  '\u00c4\u00c5\u00c7\u00c9\u00d1\u00d6\u00dc\u00e1\u00e0\u00e2\u00e4\u00e3\u00e5\u00e7\u00e9\u00e8' + // 0x80–0x8F
  '\u00ea\u00eb\u00ed\u00ec\u00ee\u00ef\u00f1\u00f3\u00f2\u00f4\u00f6\u00f5\u00fa\u00f9\u00fb\u00fc' + // 0x90–0x9F
  '\u2020\u00b0\u00a2\u00a3\u00a7\u2022\u00b6\u00df\u00ae\u00a9\u2122\u00b4\u00a8\u2260\u00c6\u00d8' + // 0xA0–0xAF
  '\u221e\u00b1\u2264\u2265\u00a5\u00b5\u2202\u2211\u220f\u03c0\u222b\u00aa\u00ba\u03a9\u00e6\u00f8' + // 0xB0–0xBF
  '\u00bf\u00a1\u00ac\u221a\u0192\u2248\u2206\u00ab\u00bb\u2026\u00a0\u00c0\u00c3\u00d5\u0152\u0153' + // 0xC0–0xCF
  '\u2013\u2014\u201c\u201d\u2018\u2019\u00f7\u25ca\u00ff\u0178\u2044\u20ac\u2039\u203a\ufb01\ufb02' + // 0xD0–0xDF
  '\u2021\u00b7\u201a\u201e\u2030\u00c2\u00ca\u00c1\u00cb\u00c8\u00cd\u00ce\u00cf\u00cc\u00d3\u00d4' + // 0xE0–0xEF
  '\uf8ff\u00d2\u00da\u00db\u00d9\u0131\u02c6\u02dc\u00af\u02d8\u02d9\u02da\u00b8\u02dd\u02db\u02c7'; // 0xF0–0xFF

/**
 * windows-1250's characters of bytes 0x80–0xFF (the WHATWG Encoding Standard's index, Microsoft's
 * CP1250.TXT; its five unassigned bytes stay control characters), a table of our own for the same reason.
 */
const WINDOWS_1250_80_FF =
  '\u20ac\u0081\u201a\u0083\u201e\u2026\u2020\u2021\u0088\u2030\u0160\u2039\u015a\u0164\u017d\u0179' + // 0x80–0x8F
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u0098\u2122\u0161\u203a\u015b\u0165\u017e\u017a' + // 0x90–0x9F
  '\u00a0\u02c7\u02d8\u0141\u00a4\u0104\u00a6\u00a7\u00a8\u00a9\u015e\u00ab\u00ac\u00ad\u00ae\u017b' + // 0xA0–0xAF
  '\u00b0\u00b1\u02db\u0142\u00b4\u00b5\u00b6\u00b7\u00b8\u0105\u015f\u00bb\u013d\u02dd\u013e\u017c' + // 0xB0–0xBF
  '\u0154\u00c1\u00c2\u0102\u00c4\u0139\u0106\u00c7\u010c\u00c9\u0118\u00cb\u011a\u00cd\u00ce\u010e' + // 0xC0–0xCF
  '\u0110\u0143\u0147\u00d3\u00d4\u0150\u00d6\u00d7\u0158\u016e\u00da\u0170\u00dc\u00dd\u0162\u00df' + // 0xD0–0xDF
  '\u0155\u00e1\u00e2\u0103\u00e4\u013a\u0107\u00e7\u010d\u00e9\u0119\u00eb\u011b\u00ed\u00ee\u010f' + // 0xE0–0xEF
  '\u0111\u0144\u0148\u00f3\u00f4\u0151\u00f6\u00f7\u0159\u016f\u00fa\u0171\u00fc\u00fd\u0163\u02d9'; // 0xF0–0xFF
