// The CSV reader's two scanners follow one set of rules: scanRecord (csvCells.ts), which reads a
// record held whole, and OversizedRecord (oversizedRecord.ts), which passes over a record too long
// to hold, a character at a time across pieces. On many generated records, quoted and not, with
// doubled quotes, delimiters and line breaks (LF, CRLF, CR) inside quotes and quotes mid-cell, both
// find the same end of the first record, and the same line the next one starts on, however the
// text is cut into pieces; and so without quoting (every quote a character).
import * as assert from 'node:assert/strict';
import { scanRecord } from '../../src/core/rows/read/csvCells';
import { OversizedRecord } from '../../src/core/rows/read/oversizedRecord';
import { countBreaks } from '../../src/core/rows/read/positions';

/** A small deterministic generator (mulberry32), so a failure is the same every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = ['a', 'b', ',', '"', '""', '\n', '\r\n', '\r', ' ', 'x"y'];

function record(next: () => number): string {
  const cells = Math.floor(next() * 4) + 1;
  const out: string[] = [];
  for (let c = 0; c < cells; c++) {
    const quoted = next() < 0.5;
    let body = '';
    const length = Math.floor(next() * 6);
    for (let i = 0; i < length; i++) body += PIECES[Math.floor(next() * PIECES.length)];
    // Unquoted cells hold no delimiter or line break (those would end the cell), quoted ones any text with quotes doubled.
    out.push(quoted ? `"${body.replace(/"/g, '""')}"${next() < 0.1 ? 'z' : ''}` : body.replace(/[,\r\n]/g, '').replace(/^"/, 'q'));
  }
  return out.join(',');
}

describe('rows read: the two CSV scanners agree', () => {
  for (const quote of ['"', ''] as const)
    it(`on 3,000 generated records and the text after them, cut into pieces anywhere (quote ${JSON.stringify(quote)})`, () => {
      const next = random(32);
      for (let n = 0; n < 3000; n++) {
        const ending = ['\n', '\r\n', '\r'][Math.floor(next() * 3)];
        const text = `${record(next)}${ending}${record(next)}\n`;
        const whole = scanRecord(text, 0, ',', true, quote);
        assert.ok(whole.complete, JSON.stringify(text));
        const cut = Math.floor(next() * (text.length + 1));
        const passing = new OversizedRecord(',', quote, 1, 1);
        let end = passing.advance(text.slice(0, cut), 0, false);
        if (end < 0) {
          const rest = passing.advance(text.slice(cut), 0, false);
          end = rest < 0 ? -1 : cut + rest;
        }
        assert.equal(end, whole.end, `record end of ${JSON.stringify(text)} cut at ${cut}`);
        assert.equal(passing.nextLine, 1 + countBreaks(text.slice(0, whole.end)), `next line of ${JSON.stringify(text)}`);
      }
    });
});
