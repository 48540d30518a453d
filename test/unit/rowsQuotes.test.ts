// Quotes in tab-separated text. GBIF's downloads (occurrence.txt) and Darwin Core archives whose
// meta.xml says fieldsEnclosedBy="" write no quoting at all: a remark `"Big" oak`, an unclosed
// `"near the road` or `trunk 6" wide` are characters. Read with CSV's quotes, the open quote ran
// across the line break to the next quote, so a row vanished into its neighbour's cell and the
// rows after took the wrong values, without a word. A spreadsheet's "Text (tab delimited)" does
// quote cells that hold a tab, a line break or a quote: those are still read as quoted.
import * as assert from 'node:assert/strict';
import { positionOf, readAll, useTableFolder } from './helpers/tableFiles';

const HEADER = ['occurrenceID', 'decimalLatitude', 'decimalLongitude', 'occurrenceRemarks', 'individualCount'];

/** Tab-separated lines, LF-ended, as GBIF writes them (no quoting). */
function tsv(rows: string[][]): string {
  return rows.map((row) => row.join('\t')).join('\n') + '\n';
}

describe('rows read: quotes in tab-separated text', () => {
  const folder = useTableFolder('spot-rows-quotes-');

  it('a GBIF occurrence.txt whose remarks start with quotes: every row, each cell as written, and it says quotes are characters', async () => {
    const rows = [
      ['o1', '47.1', '15.1', '"Big" oak', '1'],
      ['o2', '47.2', '15.2', '"near the road', '2'],
      ['o3', '47.3', '15.3', 'trunk 6" wide', '3'],
      ['o4', '47.4', '15.4', 'normal', '4'],
    ];
    const { table, rows: read, problems } = await readAll(folder.write('occurrence.txt', tsv([HEADER, ...rows])));
    assert.deepEqual(problems, []);
    assert.equal(table.format.quote, '');
    assert.ok(
      table.detected.includes('quotes are characters (detected: "\\"Big\\" oak" in column "occurrenceRemarks" is no quoted cell)'),
      table.detected.join('\n'),
    );
    // Expected: the fixture's own cells, row by row.
    assert.deepEqual(
      read.map((row) => HEADER.map((column) => row.values[column])),
      rows,
    );
  });

  it('a stray quote first met past the rows detection reads is a problem at its row, not two rows made one', async () => {
    // 2,000 plain rows (more than the 64 KiB sample), then the stray quote: detection saw no quotes.
    const plain = Array.from({ length: 2000 }, (_, i) => [`p${i}`, '47.5', '15.5', `a plain remark of row ${i}, long enough to fill the sample`, '1']);
    const text = tsv([
      HEADER,
      ...plain,
      ['o2', '47.2', '15.2', '"near the road', '2'],
      ['o3', '47.3', '15.3', 'trunk 6" wide', '3'],
      ['o4', '47.4', '15.4', 'x', '4'],
    ]);
    assert.ok(text.indexOf('"near') > 64 * 1024);
    const { table, rows, problems } = await readAll(folder.write('occurrence.txt', text));
    assert.equal(table.format.quote, undefined, 'nothing in the sample says quotes are characters');
    assert.equal(problems.length, 1, JSON.stringify(problems));
    const [problem] = problems;
    const at = positionOf(text, '"near the road');
    assert.deepEqual({ line: problem.line, column: problem.column }, at);
    assert.ok(
      problem.problem.startsWith(`the quote at line ${at.line}, column ${at.column} is closed on line ${at.line + 1} by a quote that does not end the cell`),
      problem.problem,
    );
    assert.match(problem.problem, /set "quote": "" in the mapping's source/);
    // The rows after it are read as they are.
    assert.deepEqual(
      rows.slice(-1).map((row) => row.values.occurrenceID),
      ['o4'],
    );
  });

  it("a spreadsheet's tab-delimited text: a quoted cell with a tab, a line break and doubled quotes is one cell", async () => {
    const text = 'id\tnote\tcount\r\n1\t"two\tparts\r\nand ""quoted"""\t5\r\n2\tplain\t6\r\n';
    const { table, rows, problems } = await readAll(folder.write('export.txt', text));
    assert.deepEqual(problems, []);
    assert.equal(table.format.quote, undefined);
    assert.deepEqual(
      rows.map((row) => row.values),
      [
        { id: '1', note: 'two\tparts\r\nand "quoted"', count: '5' },
        { id: '2', note: 'plain', count: '6' },
      ],
    );
  });

  it('"quote": "" reads a quote as a character in any delimited text, a CSV included', async () => {
    const text = 'id,note,count\n1,"a,b",2\n';
    const { table, rows, problems } = await readAll(folder.write('quoted.csv', text), { quote: '' });
    assert.equal(table.format.quote, '');
    assert.equal(table.columns.length, 3);
    // The quote is a character: `"a` and `b"` are two cells, one too many for the header.
    assert.equal(rows.length, 0);
    assert.match(problems[0].problem, /row 1 has 4 cells, the header 3/);
  });
});
