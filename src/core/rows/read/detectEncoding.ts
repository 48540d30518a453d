// Which encoding a file's bytes are in, when the caller did not say: the encoding a byte-order mark
// names; else UTF-8 when the bytes are valid UTF-8; else windows-1252, what spreadsheet programs on
// Windows in western locales save "CSV" in (a superset of ISO-8859-1's printable characters, so
// ä ö ü ß read right either way), or Mac OS Roman where the bytes say so (singleByteEncoding.ts). Valid UTF-8 that is meant as windows-1252 is all but impossible
// for real text: a windows-1252 letter above 0x7F followed by just the right continuation bytes.
import type { TableBytes } from './tableBytes';
import { l10n } from '../../text/l10n';
import { decodedText, type TextStop } from './decodedText';
import { countBreaks } from './positions';
import { NotUtf8Error, byteOrderMark, textDecoding } from './textDecoding';
import { singleByteEncoding } from './singleByteEncoding';
import type { SourceEncoding } from './types';

export interface EncodingDetection {
  encoding: SourceEncoding;
  /** For SourceTable.detected. */
  note: string;
  /** Found by a byte-order mark: nothing later in the file can change it. */
  byMark: boolean;
}

/** From the file's first bytes alone; `complete` when they are the whole file. */
export function detectEncoding(sample: Uint8Array, complete: boolean): EncodingDetection {
  const mark = byteOrderMark(sample);
  if (mark) return { encoding: mark.encoding, note: l10n.t('encoding {0} (detected: byte-order mark)', mark.encoding), byMark: true };
  try {
    textDecoding('utf-8').decode(sample, complete);
    return { encoding: 'utf-8', note: l10n.t('encoding {0} (detected)', 'utf-8'), byMark: false };
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    return notUtf8(countBreaks(error.text) + 1, sample);
  }
}

/**
 * The same, for the whole file: when its first bytes are valid UTF-8, the rest is checked too (read
 * a chunk at a time, nothing kept), since a spreadsheet export's first umlaut may come after
 * thousands of rows of plain ASCII, and the file would then be read as UTF-8 up to it and stop.
 */
export async function detectFileEncoding(source: TableBytes, sample: Uint8Array, complete: boolean): Promise<EncodingDetection> {
  const detection = detectEncoding(sample, complete);
  if (detection.byMark || detection.encoding !== 'utf-8' || complete) return detection;
  const stop: TextStop = {};
  for await (const text of decodedText(source, 'utf-8', stop)) void text;
  return stop.notUtf8 ? notUtf8(stop.notUtf8.line, evidenceOf(sample, stop)) : detection;
}

/** The bytes that tell a one-byte encoding: the file's first, and the piece where it stopped being UTF-8 (past them, in a long file). */
export function evidenceOf(sample: Uint8Array, stop: TextStop): Uint8Array {
  return stop.notUtf8Bytes ? Buffer.concat([sample, stop.notUtf8Bytes]) : sample;
}

/** A file that is not UTF-8 from `line` on: windows-1252, or Mac OS Roman when its first bytes say so (singleByteEncoding.ts). */
function notUtf8(line: number, sample: Uint8Array): EncodingDetection {
  const { encoding, crAlone } = singleByteEncoding(sample);
  const note =
    encoding === 'windows-1252'
      ? l10n.t('encoding {0} (detected: not valid UTF-8, line {1})', encoding, line)
      : encoding === 'windows-1250'
        ? l10n.t(
            'encoding {0} (detected: not valid UTF-8, line {1}; its letters read as Central European, ą ł ż, as Excel in Polish, Czech or Hungarian saves)',
            encoding,
            line,
          )
        : crAlone
          ? l10n.t(
              'encoding {0} (detected: not valid UTF-8, line {1}; lines end in CR alone and its letters read as Mac OS Roman, as Excel for Mac\'s "CSV (Macintosh)" writes)',
              encoding,
              line,
            )
          : l10n.t('encoding {0} (detected: not valid UTF-8, line {1}; its letters read as Mac OS Roman)', encoding, line);
  return { encoding, note, byMark: false };
}
