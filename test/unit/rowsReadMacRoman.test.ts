// Excel for Mac's "CSV (Macintosh)": Mac OS Roman bytes and lines ending in CR alone. Read as
// windows-1252 its umlauts turn into other letters without a word ("Größe" → "Grš§e"), so the
// reader tells the two apart: lines ending in CR alone, and letters that are lowercase amid
// lowercase only in Mac OS Roman. The bytes below come from Apple's published table (ROMAN.TXT:
// ä 0x8A, ö 0x9A, ü 0x9F, ß 0xA7, Ö 0x85, é 0x8E, ø 0xBF, æ 0xBE), not from the reader's own.
import * as assert from 'node:assert/strict';
import { encodedWith, readAll, useTableFolder } from './helpers/tableFiles';

const MAC_ROMAN: Record<string, number> = { ä: 0x8a, ö: 0x9a, ü: 0x9f, ß: 0xa7, Ö: 0x85, é: 0x8e, ø: 0xbf, æ: 0xbe };

const macRoman = (text: string) => encodedWith(MAC_ROMAN, text);

describe('rows read: Mac OS Roman (Excel for Mac\'s "CSV (Macintosh)")', () => {
  const folder = useTableFolder('spot-macroman-');

  it('reads a file with lines ending in CR alone as Mac OS Roman: umlauts and ß decode, and the note says so', async () => {
    const text = 'id,lat,lon,Notes\r1,47.0707,15.4395,Größe Bäume\r2,47.0712,15.4381,"Weg, Süd"\r3,48.2048,16.3577,Österreich\r';
    const { table, rows, problems } = await readAll(folder.write('mac.csv', macRoman(text)));
    assert.deepEqual(problems, []);
    assert.equal(table.format.encoding, 'macintosh');
    assert.ok(
      table.detected.some((note) => /encoding macintosh \(detected: not valid UTF-8, line 2; .*Mac OS Roman/.test(note)),
      table.detected.join('; '),
    );
    assert.deepEqual(
      rows.map((row) => row.values.Notes),
      ['Größe Bäume', 'Weg, Süd', 'Österreich'],
    );
  });

  it('tells Mac OS Roman by its letters when the line endings were made CRLF; windows-1252 stays windows-1252', async () => {
    const mac = await readAll(folder.write('mac-crlf.csv', macRoman('Art;Ort\r\nWeißstorch;Straße am Hügel\r\nMäusebussard;Schöne Aussicht\r\n')));
    assert.equal(mac.table.format.encoding, 'macintosh');
    assert.deepEqual(
      mac.rows.map((row) => [row.values.Art, row.values.Ort]),
      [
        ['Weißstorch', 'Straße am Hügel'],
        ['Mäusebussard', 'Schöne Aussicht'],
      ],
    );
    // The same words as windows-1252 bytes (Latin-1 for these letters).
    const latin = Uint8Array.from([...'Art;Ort\r\nWeißstorch;Straße am Hügel\r\nMäusebussard;Schöne Aussicht\r\n'].map((char) => char.charCodeAt(0)));
    const windows = await readAll(folder.write('windows.csv', latin));
    assert.equal(windows.table.format.encoding, 'windows-1252');
    assert.equal(windows.rows[0].values.Ort, 'Straße am Hügel');
  });

  it('reads Mac OS Roman when the mapping gives "encoding": "macintosh", even where the bytes alone could be either', async () => {
    // ö alone is a lowercase letter in both (š in windows-1252): only the mapping can say.
    const path = folder.write('given.csv', macRoman('id,Name\r\n1,Köln\r\n'));
    const { table, rows } = await readAll(path, { encoding: 'macintosh' });
    assert.equal(table.format.encoding, 'macintosh');
    assert.equal(rows[0].values.Name, 'Köln');
  });

  it('keeps windows-1252 for Windows files whose punctuation between letters reads as letters in Mac OS Roman (’ – — ™ œ)', async () => {
    // windows-1252 bytes from its published table (CP1252.TXT): ’ 0x92, — 0x97, – 0x96, œ 0x9C, é 0xE9, è 0xE8, à 0xE0.
    const cp1252: Record<string, number> = { '’': 0x92, '—': 0x97, '–': 0x96, œ: 0x9c, é: 0xe9, è: 0xe8, à: 0xe0 };
    const bytes = (text: string) =>
      Uint8Array.from([...text].map((char) => cp1252[char] ?? (char.charCodeAt(0) < 0x80 ? char.charCodeAt(0) : assert.fail(`no byte for ${char}`))));
    const english = await readAll(folder.write('en.csv', bytes('id,Notes\r\n1,near the farmer’s gate\r\n2,it’s leaning\r\n3,old—very old\r\n')));
    assert.equal(english.table.format.encoding, 'windows-1252', english.table.detected.join('; '));
    assert.deepEqual(
      english.rows.map((row) => row.values.Notes),
      ['near the farmer’s gate', 'it’s leaning', 'old—very old'],
    );
    const french = await readAll(
      folder.write('fr.csv', bytes('id;Notes\r\n1;près de l’école\r\n2;qu’il faut tailler jusqu’au printemps\r\n3;un cœur de chêne\r\n'.replace('ê', 'e'))),
    );
    assert.equal(french.table.format.encoding, 'windows-1252', french.table.detected.join('; '));
    assert.equal(french.rows[0].values.Notes, 'près de l’école');
  });

  it('reads Mac OS Roman with lines ending in LF, by letters beside letters and at the end of a word', async () => {
    // Beside each other ö and ß are no ASCII letter's neighbours; é ends a word.
    const german = await readAll(folder.write('mac-lf.csv', macRoman('id,Notes\n1,Größe Höhe\n2,Flöte\n')));
    assert.equal(german.table.format.encoding, 'macintosh', german.table.detected.join('; '));
    assert.deepEqual(
      german.rows.map((row) => row.values.Notes),
      ['Größe Höhe', 'Flöte'],
    );
    const french = await readAll(folder.write('mac-fr.csv', macRoman('id,Notes\n1,café été élevé\n')));
    assert.equal(french.table.format.encoding, 'macintosh', french.table.detected.join('; '));
    assert.equal(french.rows[0].values.Notes, 'café été élevé');
  });

  it('keeps windows-1252 for a Windows file with lines ending in CR alone, and for a word starting with Š', async () => {
    // windows-1252 bytes (CP1252.TXT): ö 0xF6, ß 0xDF, € 0x80, Š 0x8A (ä in Mac OS Roman).
    const cr = Uint8Array.from([...Buffer.from('id;lat;lon;note\r1;48.2;16.37;Gr'), 0xf6, 0xdf, ...Buffer.from('e 5 '), 0x80, 0x0d]);
    const windows = await readAll(folder.write('win-cr.csv', cr));
    assert.equal(windows.table.format.encoding, 'windows-1252', windows.table.detected.join('; '));
    assert.equal(windows.rows[0].values.note, 'Größe 5 €');
    const skoda = Uint8Array.from([...Buffer.from('id,Notes\r\n1,near the '), 0x8a, ...Buffer.from('koda garage\r\n')]);
    const czech = await readAll(folder.write('skoda.csv', skoda));
    assert.equal(czech.table.format.encoding, 'windows-1252', czech.table.detected.join('; '));
    assert.equal(czech.rows[0].values.Notes, 'near the Škoda garage');
  });

  it('names Mac OS Roman when a mapping gives UTF-8 and the file turns out Mac OS Roman past its first 64 KiB', async () => {
    const head = 'id,Notes\r' + Array.from({ length: 3000 }, (_, at) => `${at + 1},plain ascii note ${at}`).join('\r') + '\r';
    assert.ok(head.length > 70000);
    const path = folder.write('late-mac.csv', Uint8Array.from([...Buffer.from(head), ...macRoman('3001,Blätter Größe\r')]));
    await assert.rejects(readAll(path, { encoding: 'utf-8' }), (error: Error) => {
      assert.match(error.message, /macintosh/, error.message);
      assert.doesNotMatch(error.message, /windows-1252/);
      return true;
    });
  });

  it("reads Norwegian and Danish Mac files as Mac OS Roman: ø and æ are windows-1250's ż and ľ", async () => {
    for (const [name, eol] of [
      ['no-cr.csv', '\r'],
      ['no-lf.csv', '\n'],
    ] as const) {
      const text = ['name;lat;lon', 'Søndre Park;59.91;10.75', 'Tromsø Torg;69.65;18.96', 'Færder fyr;59.03;10.52', ''].join(eol);
      const { table, rows } = await readAll(folder.write(name, macRoman(text)));
      assert.equal(table.format.encoding, 'macintosh', `${name}: ${table.detected.join('; ')}`);
      assert.deepEqual(
        rows.map((row) => row.values.name),
        ['Søndre Park', 'Tromsø Torg', 'Færder fyr'],
      );
    }
  });

  it('keeps windows-1252 for single guillemets after a word (‹Linde›), which are Mac OS Roman letters', async () => {
    // windows-1252 (CP1252.TXT): ‹ 0x8B, › 0x9B, ä 0xE4.
    const line = (at: number) => [
      ...Buffer.from(`Baum ${at};47.${at};15.43;`),
      0x8b,
      ...Buffer.from('Linde'),
      0x9b,
      0x20,
      0x8b,
      ...Buffer.from('gesund'),
      0x9b,
      ...Buffer.from(', G'),
      0xe4,
      ...Buffer.from('rtner\n'),
    ];
    const bytes = Uint8Array.from([...Buffer.from('name;lat;lon;Bemerkung\n'), ...[10, 11, 12, 13].flatMap(line)]);
    const { table, rows } = await readAll(folder.write('guill.csv', bytes));
    assert.equal(table.format.encoding, 'windows-1252', table.detected.join('; '));
    assert.equal(rows[0].values.Bemerkung, '‹Linde› ‹gesund›, Gärtner');
  });
});
