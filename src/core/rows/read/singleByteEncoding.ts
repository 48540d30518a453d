// Which one-byte encoding a file that is not UTF-8 is in: windows-1252, what spreadsheet programs
// on Windows save "CSV" in, or Mac OS Roman, what Excel for Mac's "CSV (Macintosh)" writes, with
// lines ending in CR alone. Read in the wrong one, umlauts become other letters without a word
// ("Größe" → "Grš§e"). A letter byte between lowercase letters is a lowercase letter in the
// encoding the file is in (ä ö ü ß in Mac OS Roman are Š š Ÿ § in windows-1252, and ä ö ü ß in
// windows-1252 are ‰ ˆ ¸ ﬂ in Mac OS Roman): the encoding with more of those wins, and lines
// ending in CR alone, which only old Mac software writes, decide a tie.
import { textDecoding } from './textDecoding';

export type SingleByteEncoding = 'windows-1252' | 'macintosh';

export function singleByteEncoding(sample: Uint8Array): { encoding: SingleByteEncoding; crAlone: boolean } {
  const windows = lowercaseAmidLowercase(sample, 'windows-1252');
  const mac = lowercaseAmidLowercase(sample, 'macintosh');
  const crAlone = sample.includes(0x0d) && !sample.includes(0x0a);
  return { encoding: mac > windows || (crAlone && mac === windows) ? 'macintosh' : 'windows-1252', crAlone };
}

function lowercaseAmidLowercase(sample: Uint8Array, encoding: SingleByteEncoding): number {
  const decoding = textDecoding(encoding);
  const lower = (byte: number) => byte >= 0x61 && byte <= 0x7a;
  let count = 0;
  for (let at = 1; at < sample.length - 1; at++) {
    if (sample[at] < 0x80 || !lower(sample[at - 1]) || !lower(sample[at + 1])) continue;
    if (/\p{Ll}/u.test(decoding.decode(sample.subarray(at, at + 1), true))) count++;
  }
  return count;
}
