// Which one-byte encoding a file that is not UTF-8 is in: windows-1252, what spreadsheet programs
// on Windows save "CSV" in, or Mac OS Roman, what Excel for Mac's "CSV (Macintosh)" writes, with
// lines ending in CR alone. Read in the wrong one, umlauts become other letters without a word
// ("Größe" → "Grš§e"). The evidence is a byte after a letter and before a lowercase letter or the
// word's end, neighbours read in the same encoding: one that only Mac OS Roman reads as a lowercase
// letter (ä ü ß é è …, in windows-1252 Š Ÿ § Ž and the like), or one that only windows-1252 does
// (à–ÿ, in Mac OS Roman marks and capitals). Bytes both read as something a word may hold count for
// neither: windows-1252's ’ – — ™ œ š ž are ì ñ ó ô ú ö û in Mac OS Roman, and an apostrophe must
// not make an English file Mac's; nor does a word's first letter (windows-1252's "Škoda" is "äkoda"
// in Mac OS Roman). Lines ending in CR alone, which Mac software writes, decide a tie.

export type SingleByteEncoding = 'windows-1252' | 'macintosh';

// Mac OS Roman's á à â ä ã å ç é è ê ò õ ù ü ß (Apple's ROMAN.TXT): in windows-1252 ‡ ˆ ‰ Š ‹ Œ, three unassigned bytes, ˜ › Ÿ §.
const MAC_LOWERCASE = new Set([0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x98, 0x9b, 0x9d, 0x9f, 0xa7]);
// windows-1252's ß à–ÿ (CP1252.TXT, but ÷): in Mac OS Roman ﬂ ‡ · ‚ „ ‰ and accented capitals.
const isWindowsLowercase = (byte: number) => byte >= 0xdf && byte !== 0xf7;

const isAsciiLower = (byte: number) => byte >= 0x61 && byte <= 0x7a;
const isAsciiUpper = (byte: number) => byte >= 0x41 && byte <= 0x5a;
// Mac OS Roman's letters Ä–ü and á–ü (0x80–0x9F), ß, æ ø, œ, ÿ; windows-1252's š œ ž ƒ and À–ÿ but × ÷.
const isMacLetter = (byte: number) => (byte >= 0x80 && byte <= 0x9f) || [0xa7, 0xbe, 0xbf, 0xcf, 0xd8].includes(byte);
const isWindowsLetter = (byte: number) => (byte >= 0xc0 && byte !== 0xd7 && byte !== 0xf7) || [0x83, 0x9a, 0x9c, 0x9e].includes(byte);
// A word's end: the sample's edge, or an ASCII byte that is neither letter nor digit (a blank, a delimiter, a line break, a quote).
const isWordEnd = (byte: number | undefined) =>
  byte === undefined || (byte < 0x80 && !isAsciiLower(byte) && !isAsciiUpper(byte) && !(byte >= 0x30 && byte <= 0x39));

/** A letter of `encoding` after a letter, before a lowercase letter or the word's end. */
function inWord(sample: Uint8Array, at: number, isLetter: (byte: number) => boolean): boolean {
  const before = sample[at - 1];
  const after = sample[at + 1];
  const afterLetter = before !== undefined && (isAsciiLower(before) || isAsciiUpper(before) || isLetter(before));
  return afterLetter && (isAsciiLower(after) || (after !== undefined && isLetter(after)) || isWordEnd(after));
}

export function singleByteEncoding(sample: Uint8Array): { encoding: SingleByteEncoding; crAlone: boolean } {
  let mac = 0;
  let windows = 0;
  for (let at = 1; at < sample.length; at++) {
    const byte = sample[at];
    if (byte < 0x80) continue;
    if (MAC_LOWERCASE.has(byte)) {
      if (inWord(sample, at, isMacLetter)) mac++;
    } else if (isWindowsLowercase(byte) && inWord(sample, at, isWindowsLetter)) windows++;
  }
  const crAlone = sample.includes(0x0d) && !sample.includes(0x0a);
  return { encoding: mac > windows || (crAlone && mac === windows) ? 'macintosh' : 'windows-1252', crAlone };
}
