// Windows' Central European code page, windows-1250: what Excel in Polish, Czech, Slovak, Hungarian
// or Slovenian saves as "CSV". Read as windows-1252 its letters turned into others without a word
// ("Łąka" → "£¹ka", "Dąb już" → "D¹b ju¿"). The bytes come from Microsoft's published table
// (CP1250.TXT: ą 0xB9, ł 0xB3, ż 0xBF, ę 0xEA, ó 0xF3, ś 0x9C, ć 0xE6, ń 0xF1, Ł 0xA3, č 0xE8,
// ř 0xF8, ě 0xEC, ý 0xFD, í 0xED, á 0xE1, ď 0xEF, ň 0xF2, š 0x9A, ź 0x9F, Ż 0xAF), not from the reader's own.
import * as assert from 'node:assert/strict';
import { encodedWith, readAll, useTableFolder } from './helpers/tableFiles';

const CP1250: Record<string, number> = {
  ą: 0xb9,
  ł: 0xb3,
  ż: 0xbf,
  ę: 0xea,
  ó: 0xf3,
  ś: 0x9c,
  ć: 0xe6,
  ń: 0xf1,
  Ł: 0xa3,
  č: 0xe8,
  ř: 0xf8,
  ě: 0xec,
  ý: 0xfd,
  í: 0xed,
  á: 0xe1,
  ď: 0xef,
  ň: 0xf2,
  š: 0x9a,
  ź: 0x9f,
  Ż: 0xaf,
};

const cp1250 = (text: string) => encodedWith(CP1250, text);

describe('rows read: windows-1250 (Central European Excel)', () => {
  const folder = useTableFolder('spot-cp1250-');

  it('detects a Polish file by its letters and reads them; the note says so', async () => {
    const text = 'id;gatunek;uwagi\r\n1;Dąb szypułkowy;Łąka przy drodze\r\n2;Lipa;już sucha gałąź\r\n3;Brzoza;zdrowe, ćwierć wieku\r\n';
    const { table, rows, problems } = await readAll(folder.write('pl.csv', cp1250(text)));
    assert.deepEqual(problems, []);
    assert.equal(table.format.encoding, 'windows-1250', table.detected.join('; '));
    assert.ok(
      table.detected.some((note) => /encoding windows-1250 \(detected: not valid UTF-8, line 2; .*Central European/.test(note)),
      table.detected.join('; '),
    );
    assert.deepEqual(
      rows.map((row) => [row.values.gatunek, row.values.uwagi]),
      [
        ['Dąb szypułkowy', 'Łąka przy drodze'],
        ['Lipa', 'już sucha gałąź'],
        ['Brzoza', 'zdrowe, ćwierć wieku'],
      ],
    );
  });

  it('reads windows-1250 when the mapping gives it (Czech, whose letters windows-1252 reads as other letters)', async () => {
    const { table, rows } = await readAll(folder.write('cz.csv', cp1250('id,druh\r\n1,Jírovec maďal\r\n2,Třešeň ptačí\r\n')), { encoding: 'windows-1250' });
    assert.equal(table.format.encoding, 'windows-1250');
    assert.deepEqual(
      rows.map((row) => row.values.druh),
      ['Jírovec maďal', 'Třešeň ptačí'],
    );
  });

  it('keeps windows-1252 for a German file with cubic metres ("m³") and French, Spanish and Danish letters', async () => {
    const latin = (text: string) => Uint8Array.from([...text].map((char) => char.charCodeAt(0)));
    const german = await readAll(folder.write('de.csv', latin('id;Holz;Notiz\r\n1;2,5 m³;Größe\r\n2;1 m³;Eiche, ¿qué?\r\n3;4;Ørsted æble\r\n')));
    assert.equal(german.table.format.encoding, 'windows-1252', german.table.detected.join('; '));
    assert.equal(german.rows[0].values.Holz, '2,5 m³');
  });

  it('tells the encoding by the letters where the first byte that is not UTF-8 is, past the first 64 KiB of plain ASCII', async () => {
    const head = 'id;gatunek\n' + Array.from({ length: 5000 }, (_, at) => `${at + 1};plain ascii`).join('\n') + '\n';
    assert.ok(head.length > 70000);
    const path = folder.write('late.csv', Uint8Array.from([...Buffer.from(head), ...cp1250('5001;Dąb szypułkowy, już\n')]));
    const { table, rows } = await readAll(path);
    assert.equal(table.format.encoding, 'windows-1250', table.detected.join('; '));
    assert.equal(rows[rows.length - 1].values.gatunek, 'Dąb szypułkowy, już');
  });

  it("detects a short Polish file whose ż and ź are Mac OS Roman's ø and ü too, whatever its line ends", async () => {
    // A review's fixture: "Łódź", "może" hold Mac letters; ł before a letter holds none.
    for (const [name, eol] of [
      ['lf', '\n'],
      ['crlf', '\r\n'],
      ['cr', '\r'],
    ] as const) {
      const text = ['id;name;ort', '1;Łódź ulica;Gdańsk', '2;Żółw może;Kraków', ''].join(eol);
      const { table, rows } = await readAll(folder.write(`pl-${name}.csv`, cp1250(text)));
      assert.equal(table.format.encoding, 'windows-1250', `${name}: ${table.detected.join('; ')}`);
      assert.deepEqual(
        rows.map((row) => row.values.name),
        ['Łódź ulica', 'Żółw może'],
      );
    }
  });
});
