// A mapping saved in Latin-1 (a Windows editor's default): its "Länge" became "L\uFFFDnge" and the
// table was said to have no such column. It is refused with what to do, as a topic definition or
// a spot document that is not UTF-8 is; a byte-order mark is fine.
import * as assert from 'node:assert/strict';
import { truncateSync } from 'node:fs';
import { ensureCliBuilt, runCli, scratch } from './helpers/cliProcess';

describe('spot-import rows: a mapping that is not UTF-8', function () {
  this.timeout(30_000);
  let folder: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  afterEach(() => folder?.cleanup());

  const MAPPING = '{"topic_id": 1, "source_id": "b-{Nr}", "latitude": "Breite", "longitude": "Länge"}';

  it('Latin-1 is refused, saying to save it as UTF-8; UTF-8 with a byte-order mark is read', async () => {
    folder = scratch({ 'b.csv': 'Nr;Breite;Länge\n1;47,1;15,4\n' });
    folder.write('b.mapping.json', Buffer.from(MAPPING, 'latin1'));
    const latin1 = await runCli(['validate', 'b.csv'], { cwd: folder.dir });
    assert.equal(latin1.code, 2, latin1.stdout + latin1.stderr);
    assert.match(latin1.stderr, /b\.mapping\.json cannot be read: it is not UTF-8 text: save it as UTF-8 and run again/);
    folder.write('b.mapping.json', `\ufeff${MAPPING}`);
    const utf8 = await runCli(['validate', 'b.csv'], { cwd: folder.dir });
    assert.equal(utf8.code, 0, utf8.stdout + utf8.stderr);
  });

  // A 600 MB file named as a mapping was read whole (a heap of a gigabyte and more) before it was
  // found not to be one: refused unread, as a topic definition of that size is.
  it('a mapping of 600 MB is refused unread, saying how large a mapping can be', async () => {
    folder = scratch({ 'b.csv': 'Nr;Breite;Länge\n1;47,1;15,4\n' });
    truncateSync(folder.write('b.mapping.json', ''), 600 * 1024 * 1024);
    const run = await runCli(['validate', 'b.csv'], { cwd: folder.dir });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stderr, /b\.mapping\.json cannot be read: it is 600 MiB, larger than a mapping can be \(\d+ MiB\)/);
  });
});
