// Which one-byte encoding a file that is not UTF-8 is in: windows-1252, what spreadsheet programs
// on Windows save "CSV" in, or Mac OS Roman, what Excel for Mac's "CSV (Macintosh)" writes, with
// lines ending in CR alone. Read in the wrong one, umlauts become other letters without a word
// ("Größe" → "Grš§e"). The evidence is a byte between two lowercase letters: one that only Mac OS
// Roman reads as a lowercase letter there (ä ü ß é è …, in windows-1252 Š Ÿ § Ž and the like), or
// one that only windows-1252 does (à–ÿ, in Mac OS Roman marks and capitals). Bytes both read as
// something a word may hold count for neither: windows-1252's ’ – — ™ œ š ž are ì ñ ó ô ú ö û
// in Mac OS Roman, and an apostrophe must not make an English file Mac's. Lines ending in CR
// alone, which only Mac software writes, decide a tie.

export type SingleByteEncoding = 'windows-1252' | 'macintosh';

// Mac OS Roman's á à â ä ã å ç é è ê ò õ ù ü ß (Apple's ROMAN.TXT): in windows-1252 ‡ ˆ ‰ Š ‹ Œ, three unassigned bytes, ˜ › Ÿ §.
const MAC_LOWERCASE = new Set([0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f, 0x90, 0x98, 0x9b, 0x9d, 0x9f, 0xa7]);
// windows-1252's ß à–ÿ (CP1252.TXT, but ÷): in Mac OS Roman ﬂ ‡ · ‚ „ ‰ and accented capitals.
const isWindowsLowercase = (byte: number) => byte >= 0xdf && byte !== 0xf7;

export function singleByteEncoding(sample: Uint8Array): { encoding: SingleByteEncoding; crAlone: boolean } {
  const lower = (byte: number) => byte >= 0x61 && byte <= 0x7a;
  let mac = 0;
  let windows = 0;
  for (let at = 1; at < sample.length - 1; at++) {
    const byte = sample[at];
    if (byte < 0x80 || !lower(sample[at - 1]) || !lower(sample[at + 1])) continue;
    if (MAC_LOWERCASE.has(byte)) mac++;
    else if (isWindowsLowercase(byte)) windows++;
  }
  const crAlone = sample.includes(0x0d) && !sample.includes(0x0a);
  return { encoding: mac > windows || (crAlone && mac === windows) ? 'macintosh' : 'windows-1252', crAlone };
}
