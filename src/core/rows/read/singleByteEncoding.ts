// Which one-byte encoding a file that is not UTF-8 is in: windows-1252, what spreadsheet programs
// on Windows save "CSV" in, or Mac OS Roman, what Excel for Mac's "CSV (Macintosh)" writes, with
// lines ending in CR alone. Read in the wrong one, umlauts become other letters without a word
// ("Größe" → "Grš§e"). The evidence is a byte after a letter and before a lowercase letter or the
// word's end, neighbours read in the same encoding: one that only Mac OS Roman reads as a lowercase
// letter (ä ü ß é è …, in windows-1252 Š Ÿ § Ž and the like), or one that only windows-1252 does
// (à–ÿ, in Mac OS Roman marks and capitals). Bytes both read as something a word may hold count for
// neither: windows-1252's ’ – — ™ œ š ž are ì ñ ó ô ú ö û in Mac OS Roman, and an apostrophe must
// not make an English file Mac's; nor does a word's first letter (windows-1252's "Škoda" is "äkoda"
// in Mac OS Roman). Lines ending in CR alone, which Mac software writes, decide a tie. Windows'
// Central European code page, windows-1250 (Polish, Czech, Slovak, Hungarian Excel), is told by its
// letters that are signs in windows-1252 (ą ł ż ľ, there ¹ ³ ¿ ¾) or end words
// there (ě ů, there ì ù) inside a word: its other letters are letters in windows-1252 too (č is è,
// Hungarian ő ű are õ û), and a word never holds ¹ or ¿. Those files need the mapping's encoding.

export type SingleByteEncoding = 'windows-1252' | 'windows-1250' | 'macintosh';

// Mac OS Roman's á à â ä ã å ç é è ê ò õ ù ü ß æ ø (Apple's ROMAN.TXT): in windows-1252 ‡ ˆ ‰ Š ‹ Œ, three unassigned bytes, ˜ › Ÿ § ¾ ¿.
const MAC_LOWERCASE = new Set([0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x98, 0x9b, 0x9d, 0x9f, 0xa7, 0xbe, 0xbf]);
// Of those, the ones that may end a word (ß in "Fuß", à in "déjà"): windows-1252's ‡ ‰ ‹ ˜ › close
// a word there ("‹Linde›"), where Mac OS Roman's letter would.
const MAC_WORD_END = new Set([0x88, 0x8a, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x9d, 0x9f, 0xa7, 0xbe, 0xbf]);
// windows-1252's ß à–ÿ (CP1252.TXT, but ÷): in Mac OS Roman ﬂ ‡ · ‚ „ ‰ and accented capitals.
const isWindowsLowercase = (byte: number) => byte >= 0xdf && byte !== 0xf7;

const isAsciiLower = (byte: number) => byte >= 0x61 && byte <= 0x7a;
const isAsciiUpper = (byte: number) => byte >= 0x41 && byte <= 0x5a;
// Mac OS Roman's letters Ä–ü and á–ü (0x80–0x9F), ß, æ ø, œ, ÿ; windows-1252's š œ ž ƒ and À–ÿ but × ÷.
const isMacLetter = (byte: number) => (byte >= 0x80 && byte <= 0x9f) || [0xa7, 0xbe, 0xbf, 0xcf, 0xd8].includes(byte);
const isWindowsLetter = (byte: number) => (byte >= 0xc0 && byte !== 0xd7 && byte !== 0xf7) || [0x83, 0x9a, 0x9c, 0x9e].includes(byte);
// windows-1250's ą ż ľ (CP1250.TXT): in windows-1252 ¹ ¿ ¾. Its ż ľ are Mac OS Roman's ø æ too, and
// count for both; its ť ź, Mac's ù ü, for neither. Only a letter Mac OS Roman does not have (ą ł ě
// ů, there π ≥ Ï ˘) makes a file Central European: Norwegian holds ø æ, Polish ą or ł as well.
const CENTRAL_LOWERCASE = new Set([0xb9, 0xbf, 0xbe]);
const CENTRAL_NOT_MAC = new Set([0xb9, 0xb3, 0xec, 0xf9]);
// Its ł ě ů count before a lowercase letter only: in windows-1252 ³ ì ù, which end a word ("m³",
// Italian "così", "più"), where Czech writes "měsíc", "stůl".
const CENTRAL_WITHIN_WORD = new Set([0xb3, 0xec, 0xf9]);
// windows-1250's letters Š Ś Ť Ž Ź š ś ť ž ź Ł Ą Ş Ż ł ą ş Ľ ľ ż and Ŕ–ţ but × ÷.
const isCentralLetter = (byte: number) =>
  (byte >= 0xc0 && byte !== 0xd7 && byte !== 0xf7) ||
  [0x8a, 0x8c, 0x8d, 0x8e, 0x8f, 0x9a, 0x9c, 0x9d, 0x9e, 0x9f, 0xa3, 0xa5, 0xaa, 0xaf, 0xb3, 0xb9, 0xba, 0xbc, 0xbe, 0xbf].includes(byte);
const isCentralLowercase = (byte: number) => (byte >= 0xdf && byte !== 0xf7) || [0x9a, 0x9c, 0x9d, 0x9e, 0x9f, 0xb3, 0xb9, 0xba, 0xbe, 0xbf].includes(byte);

// A word's end: the sample's edge, or an ASCII byte that is neither letter nor digit (a blank, a delimiter, a line break, a quote).
const isWordEnd = (byte: number | undefined) =>
  byte === undefined || (byte < 0x80 && !isAsciiLower(byte) && !isAsciiUpper(byte) && !(byte >= 0x30 && byte <= 0x39));

/** A letter of `encoding` after a letter, before a lowercase letter or (`mayEnd`) the word's end. */
function inWord(sample: Uint8Array, at: number, isLetter: (byte: number) => boolean, mayEnd = true): boolean {
  const before = sample[at - 1];
  const after = sample[at + 1];
  const afterLetter = before !== undefined && (isAsciiLower(before) || isAsciiUpper(before) || isLetter(before));
  return afterLetter && (isAsciiLower(after) || (after !== undefined && isLetter(after)) || (mayEnd && isWordEnd(after)));
}

export function singleByteEncoding(sample: Uint8Array): { encoding: SingleByteEncoding; crAlone: boolean } {
  let mac = 0;
  let windows = 0;
  let central = 0;
  let centralNotMac = 0;
  for (let at = 1; at < sample.length; at++) {
    const byte = sample[at];
    if (byte < 0x80) continue;
    if (CENTRAL_LOWERCASE.has(byte) || CENTRAL_WITHIN_WORD.has(byte)) {
      const next = sample[at + 1];
      const beforeLowercase = next !== undefined && (isAsciiLower(next) || isCentralLowercase(next));
      if (inWord(sample, at, isCentralLetter) && (CENTRAL_LOWERCASE.has(byte) || beforeLowercase)) {
        central++;
        if (CENTRAL_NOT_MAC.has(byte)) centralNotMac++;
      }
    }
    if (MAC_LOWERCASE.has(byte)) {
      if (inWord(sample, at, isMacLetter, MAC_WORD_END.has(byte))) mac++;
    } else if (isWindowsLowercase(byte) && inWord(sample, at, isWindowsLetter)) windows++;
  }
  const crAlone = sample.includes(0x0d) && !sample.includes(0x0a);
  if (centralNotMac > 0 && central >= mac) return { encoding: 'windows-1250', crAlone };
  return { encoding: mac > windows || (crAlone && mac === windows) ? 'macintosh' : 'windows-1252', crAlone };
}
