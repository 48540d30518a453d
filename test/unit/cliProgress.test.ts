// The command line's progress on a terminal: counts of a known total ("12/40 documents"), and of
// a table's rows, whose number is not known before the end ("12 rows", never "12/0 rows").
import * as assert from 'assert';
import { Writable } from 'stream';
import { createProgress } from '../../src/cli/progress';

function terminal(): Writable & { isTTY: boolean; columns: number; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  }) as Writable & { isTTY: boolean; columns: number; text(): string; cursorTo(x: number): boolean; clearLine(): boolean; moveCursor(): boolean };
  stream.isTTY = true;
  stream.columns = 120;
  stream.cursorTo = () => true;
  stream.clearLine = () => true;
  stream.moveCursor = () => true;
  stream.text = () => chunks.join('');
  return stream;
}

describe("the command line's progress", () => {
  it('counts documents of a known total, on a terminal that cannot redraw', () => {
    const stream = terminal();
    const progress = createProgress('documents', stream, { TERM: 'dumb' });
    progress.update({ done: 40, total: 40, bytes: 2048 });
    assert.match(stream.text(), /^40\/40 documents \| 2\.0 KiB \| /);
  });

  it("counts rows without a total: a table's rows are not counted before they are imported", () => {
    const stream = terminal();
    const progress = createProgress('rows', stream, { TERM: 'dumb' });
    progress.update({ done: 12, bytes: 0 });
    assert.match(stream.text(), /^12 rows \| /);
    const bar = terminal();
    const drawn = createProgress('rows', bar, {});
    drawn.update({ done: 12, bytes: 0 });
    drawn.update({ done: 13, bytes: 0 });
    drawn.stop();
    assert.match(bar.text(), /13 rows/);
    assert.doesNotMatch(bar.text(), /\/0 rows|\/1 rows/);
  });
});
