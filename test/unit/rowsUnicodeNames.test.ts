// "Länge" has two spellings in Unicode: composed (ä, NFC, as keyboards type it) and decomposed
// (a + U+0308, NFD, as macOS writes names, and as a mapping made from such a header or typed on a
// Mac may hold it). A header and a mapping spelt differently did not match: "has no column
// "Länge"; did you mean "Länge"?". Both sides are read composed now, in every combination.
import * as assert from 'node:assert/strict';
import { attributesOfRow, checkedTable } from './helpers/checkedTable';

const COMPOSED = 'L\u00e4nge';
const DECOMPOSED = 'La\u0308nge';

async function attributesOf(header: string, inMapping: string): Promise<Record<string, unknown>> {
  const mapping = { topic_id: 1, source_id: `n-{Nr}-{${inMapping}}`, latitude: 'Breite', longitude: inMapping, fields: { fld_1_1: inMapping } };
  const { rows } = await checkedTable('n.csv', `Nr;Breite;${header}\n1;47,1;15,5\n`, mapping);
  assert.deepEqual(rows[0].findings, []);
  return attributesOfRow(rows[0]);
}

describe('rows: column names in either Unicode spelling', () => {
  for (const [header, inMapping, how] of [
    [DECOMPOSED, COMPOSED, 'a Mac header, a typed mapping'],
    [COMPOSED, DECOMPOSED, 'a typed header, a mapping written on a Mac'],
    [DECOMPOSED, DECOMPOSED, 'both from a Mac'],
  ] as const)
    it(`${how}: the column is found and read`, async () => {
      const attributes = await attributesOf(header, inMapping);
      assert.equal(attributes.longitude, 15.5);
      assert.equal(attributes.fld_1_1, '15,5');
      assert.equal(attributes.source_id, 'n-1-15,5');
    });
});
