// --no-media after an import with media: the journal records the spot's galleries complete and its
// final state, while the document (or the row) read without its media says its gallery fields are
// null and state 2. That text must not move the finished spot back to state 2 (docs/cli.md: a second
// run sends nothing that was done): unchanged otherwise it is already imported, and changed in another
// attribute it is sent with the gallery ids and the final state the journal records.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { jsonLines, runCli, scratch, spotText, useCliSandbox } from './helpers/cliProcess';

describe('spot-import import --no-media after an import with media', function () {
  this.timeout(60_000);
  const service = useCliSandbox();
  let project: ReturnType<typeof scratch>;
  afterEach(() => project.cleanup());

  /** The one spot line of a run's JSON output. */
  function spotLine(stdout: string): Record<string, unknown> {
    const spots = jsonLines(stdout).filter((record) => record.type === 'spot');
    assert.equal(spots.length, 1, stdout);
    return spots[0];
  }

  /** The spot on the service: its state, note, gallery id and how many media that gallery holds. */
  function onService(sourceId: string, field: string): { state: unknown; note: unknown; galleryId: unknown; media: number } {
    const spot = service.sandbox().spotBySourceId(sourceId);
    assert.ok(spot, `${sourceId} is on the service`);
    const galleryId = spot.attributes[field];
    return { state: spot.attributes.state, note: spot.attributes.note, galleryId, media: service.sandbox().gallery(galleryId as number)?.mediaIds.length ?? 0 };
  }

  const MAPPING = {
    topic_id: 1,
    source_id: 'row-{id}',
    latitude: 'lat',
    longitude: 'lon',
    fields: { note: 'note' },
    media: { fld_1_10: { columns: ['photos'], folder: 'photos' } },
  };

  it('a row: unchanged it is already imported and nothing is sent; with another cell changed it is updated in state 1 with its gallery id', async () => {
    const env = await service.start();
    project = scratch({
      'photos/a.jpg': 'jpeg bytes of a',
      'photos/b.jpg': 'jpeg bytes of b, longer',
      'obs.csv': 'id,lat,lon,note,photos\n1,47,15,first,a.jpg;b.jpg\n',
      'obs.mapping.json': JSON.stringify(MAPPING),
    });
    const first = await runCli(['import', 'obs.csv', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(first.code, 0, first.stderr);
    const finished = onService('row-1', 'fld_1_10');
    assert.deepEqual(finished, { state: 1, note: 'first', galleryId: finished.galleryId, media: 2 });

    const imports = service.sandbox().counters.imports;
    const unchanged = await runCli(['import', 'obs.csv', '--no-media', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(unchanged.code, 0, unchanged.stderr);
    const line = spotLine(unchanged.stdout);
    assert.equal(line.status, 'alreadyImported', JSON.stringify(line));
    assert.deepEqual(line.pendingGalleries, [], 'its gallery holds its photos: not pending');
    assert.equal(service.sandbox().counters.imports, imports, 'nothing was sent');
    assert.deepEqual(onService('row-1', 'fld_1_10'), finished);

    writeFileSync(project.path('obs.csv'), 'id,lat,lon,note,photos\n1,47,15,second,a.jpg;b.jpg\n');
    const changed = await runCli(['import', 'obs.csv', '--no-media', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(changed.code, 0, changed.stderr);
    assert.equal(spotLine(changed.stdout).status, 'imported');
    assert.deepEqual(onService('row-1', 'fld_1_10'), { ...finished, note: 'second' }, 'still state 1 with its gallery');

    // What --no-media sent is what the run with media would send: that run has nothing left to do.
    const after = service.sandbox().counters.imports;
    const withMedia = await runCli(['import', 'obs.csv', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(withMedia.code, 0, withMedia.stderr);
    assert.equal(spotLine(withMedia.stdout).status, 'alreadyImported');
    assert.equal(service.sandbox().counters.imports, after);
  });

  it('a document not written back: unchanged it is already imported; with another member changed it is updated in state 1 with its gallery id', async () => {
    const env = await service.start();
    project = scratch({
      'spots/a.spot.json': spotText('doc-1', { note: 'first', state: 2, fld_1_10: null }),
      'spots/a.media/01.jpg': 'jpeg bytes of one',
      'spots/a.media/02.jpg': 'jpeg bytes of two, longer',
    });
    const first = await runCli(['import', 'spots', '--no-write-back'], { cwd: project.dir, env });
    assert.equal(first.code, 0, first.stderr);
    const finished = onService('doc-1', 'fld_1_10');
    assert.deepEqual(finished, { state: 1, note: 'first', galleryId: finished.galleryId, media: 2 });

    const imports = service.sandbox().counters.imports;
    const unchanged = await runCli(['import', 'spots', '--no-media', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(unchanged.code, 0, unchanged.stderr);
    assert.equal(spotLine(unchanged.stdout).status, 'alreadyImported');
    assert.equal(service.sandbox().counters.imports, imports, 'nothing was sent');
    assert.deepEqual(onService('doc-1', 'fld_1_10'), finished);

    const path = project.path('spots/a.spot.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"first"', '"second"'));
    const changed = await runCli(['import', 'spots', '--no-media', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(changed.code, 0, changed.stderr);
    assert.equal(spotLine(changed.stdout).status, 'imported');
    assert.deepEqual(onService('doc-1', 'fld_1_10'), { ...finished, note: 'second' }, 'still state 1 with its gallery');
  });

  it('a gallery whose media were never sent stays pending: --no-media twice, the second time changed, keeps the spot in state 2', async () => {
    const env = await service.start();
    project = scratch({
      'spots/a.spot.json': spotText('doc-2', { note: 'first', state: 2, fld_1_10: null }),
      'spots/a.media/01.jpg': 'jpeg bytes of one',
    });
    const first = await runCli(['import', 'spots', '--no-media'], { cwd: project.dir, env });
    assert.equal(first.code, 0, first.stderr);
    const pending = onService('doc-2', 'fld_1_10');
    assert.deepEqual(pending, { state: 2, note: 'first', galleryId: pending.galleryId, media: 0 });

    const path = project.path('spots/a.spot.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"first"', '"second"'));
    const changed = await runCli(['import', 'spots', '--no-media', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(changed.code, 0, changed.stderr);
    const line = spotLine(changed.stdout);
    assert.deepEqual(line.pendingGalleries, [{ field: 'fld_1_10', galleryId: pending.galleryId }]);
    assert.deepEqual(onService('doc-2', 'fld_1_10'), { ...pending, note: 'second' });
  });
});
