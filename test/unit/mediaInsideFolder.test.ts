// Media files named by data (a table's photo cells, a spot document's media folder) are sent only
// from inside their folder: a cell naming "../", a full path, or a link (git keeps symbolic links,
// so a cloned repository can hold one) that leads out is refused at its cell or file, and nothing
// outside is read for an upload.
import * as assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSpotMedia } from '../../src/core/media';
import { isRowReadProblem, openMappedTable, parseMapping, rowToSpot, type SourceRow } from '../../src/core/rows';
import { useTableFolder } from './helpers/tableFiles';

/** Eight bytes of a PNG signature: accepted as a photo by its name, enough for these checks. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe('media named by data come from inside their folder', function () {
  if (process.platform === 'win32') return;
  const folder = useTableFolder('spot-media-inside-');

  it("a table's photo cell naming a file outside the media folder (../, a full path, a link out) is a problem at its cell; one inside is taken", async () => {
    const dir = folder.dir();
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'private.png'), PNG);
    mkdirSync(join(dir, 'project', 'photos'), { recursive: true });
    writeFileSync(join(dir, 'project', 'photos', 'oak.png'), PNG);
    symlinkSync(join(dir, 'outside', 'private.png'), join(dir, 'project', 'photos', 'link.png'));
    const outsidePath = join(dir, 'outside', 'private.png');
    const lines = ['id;lat;lon;photo', 'a;47.1;16.1;oak.png', 'b;47.1;16.1;../../outside/private.png', `c;47.1;16.1;${outsidePath}`, 'd;47.1;16.1;link.png'];
    const table = join(dir, 'project', 'trees.csv');
    writeFileSync(table, lines.join('\n') + '\n');
    const mapping = { topic_id: 7, source_id: 'tree-{id}', latitude: 'lat', longitude: 'lon', media: { fld_7_3: { columns: ['photo'], folder: 'photos' } } };
    const opened = await openMappedTable(table, parseMapping(join(dir, 'project', 'trees.mapping.json'), JSON.stringify(mapping)));
    assert.ok(opened.mapping, JSON.stringify(opened.problems));
    const rows: SourceRow[] = [];
    for await (const item of opened.table.rows()) if (!isRowReadProblem(item)) rows.push(item);
    const spots = await Promise.all(rows.map((row) => rowToSpot(row, opened.mapping!)));
    assert.deepEqual(spots[0].problems, []);
    assert.deepEqual(
      spots[0].media?.groups.flatMap((group) => group.files.map((file) => file.name)),
      ['oak.png'],
    );
    for (const [index, name] of [
      [1, '../../outside/private.png'],
      [2, outsidePath],
      [3, 'link.png'],
    ] as const) {
      const messages = spots[index].problems.map((problem) => problem.message);
      assert.equal(messages.length, 1, `${name}: ${messages.join(' | ')}`);
      assert.match(
        messages[0],
        /^The photo ".+": is outside the folder .+photos \(a name with "\.\.", a full path or a link to elsewhere\): only files inside it are sent; copy it into the folder\.$/,
        name,
      );
      assert.equal(spots[index].media, undefined, `${name}: nothing to send`);
    }
  });

  it("a spot document's media file that is a link out of the document's folder, or a media folder that is one, is refused", async () => {
    const dir = folder.dir();
    mkdirSync(join(dir, 'home', 'secrets'), { recursive: true });
    writeFileSync(join(dir, 'home', 'secrets', 'key.png'), Buffer.concat([PNG, Buffer.from('secret')]));
    mkdirSync(join(dir, 'repo', 'walk.media'), { recursive: true });
    writeFileSync(join(dir, 'repo', 'walk.media', '01.png'), PNG);
    symlinkSync(join(dir, 'home', 'secrets', 'key.png'), join(dir, 'repo', 'walk.media', '02.png'));
    symlinkSync(join(dir, 'home', 'secrets'), join(dir, 'repo', 'run.media'));
    const document = (name: string) => {
      const path = join(dir, 'repo', `${name}.spot.json`);
      const text = JSON.stringify({
        data: { type: 'spots', attributes: { source_id: name, topic_id: 7, title: name, latitude: 47, longitude: 16, fld_7_3: null, state: 2 } },
      });
      writeFileSync(path, text);
      return { path, text };
    };
    const walk = document('walk');
    const walkCheck = await checkSpotMedia(walk.path, walk.text);
    assert.deepEqual(
      walkCheck.problems.map((problem) => problem.message),
      [
        `02.png: is outside the folder ${join(dir, 'repo')} (a name with "..", a full path or a link to elsewhere): only files inside it are sent; copy it into the folder.`,
      ],
    );
    const run = document('run');
    const runCheck = await checkSpotMedia(run.path, run.text);
    assert.deepEqual(
      runCheck.problems.map((problem) => problem.message),
      [
        `key.png: is outside the folder ${join(dir, 'repo')} (a name with "..", a full path or a link to elsewhere): only files inside it are sent; copy it into the folder.`,
      ],
    );
  });
});
