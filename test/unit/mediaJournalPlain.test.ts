import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runImport, serviceUrlOf, streamImport } from '../../src/core/import';
import { ImportJournal, defaultJournalDir } from '../../src/core/journal';
import { DEMO_CLIENT } from '../../src/sandbox/types';
import { spot, useCoreWorkspace } from './helpers/coreSetup';
import { writeSpot } from './helpers/workflowFixtures';
import { testAccounts } from './helpers/testAccounts';

// The journal's records go to one append-only log per account; those of spots without galleries
// are written without fsync (losing them costs one more upsert). What that allows after a power
// cut, and what a journal kept across runs reads.
describe('media journal: spots without galleries, and one log per account', () => {
  const workspace = useCoreWorkspace('spot-journal-plain-');
  const options = workspace.workflowOptions;

  it('takes an empty log (writes lost in a power cut) as no record, and imports again', async () => {
    const path = join(workspace.dir, 'plain.spot.json');
    writeFileSync(path, JSON.stringify(spot('plain-1')));
    const first = await runImport([{ path }], options());
    assert.equal(first.spots[0].status, 'done');
    const journalFile = first.spots[0].journalFile!;
    writeFileSync(journalFile, '');
    const again = await runImport([{ path }], options());
    assert.equal(again.spots[0].status, 'done', again.spots[0].reason);
    assert.equal(again.spots[0].imported, 'final');
    assert.equal(workspace.setup.sandbox.counters.imports, 2);
  });

  it('a spot without media has no media-hash cache in its line; a spot with media keeps one', async () => {
    const path = join(workspace.dir, 'cacheless.spot.json');
    writeFileSync(path, JSON.stringify(spot('cacheless-1')));
    const fixture = writeSpot(workspace.dir, 'cached', { fld_1_3: ['01.jpg'] });
    const { spots } = await runImport([{ path }, { path: fixture.path }], options());
    assert.deepEqual(
      spots.map((s) => s.status),
      ['done', 'done'],
      spots.map((s) => s.reason).join('; '),
    );
    const records = readFileSync(spots[0].journalFile!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { sourceId: string; files?: Record<string, unknown> });
    const last = (sourceId: string) => records.filter((record) => record.sourceId === sourceId).pop()!;
    assert.equal('files' in last('cacheless-1'), false);
    assert.deepEqual(Object.keys(last(fixture.sourceId).files ?? {}), ['fld_1_3/01.jpg']);
  });

  it('a journal instance kept across runs still reads the records written by its earlier run', async () => {
    const fixture = writeSpot(workspace.dir, 'walk', { fld_1_3: ['01.jpg', '02.jpg'] });
    const journal = new ImportJournal(
      defaultJournalDir(workspace.dir),
      { serviceUrl: serviceUrlOf(workspace.setup.client.apiRoot), clientId: DEMO_CLIENT.clientId },
      testAccounts,
    );
    try {
      // Listed before the spot's journal exists...
      (await journal.open('someone-else', fixture.path)).release();
      const first = await journal.open(fixture.sourceId, fixture.path);
      first.record.spotId = 4242;
      await first.save();
      first.release();
      // ...and opened again after it was written: the record is read, not taken as new.
      const second = await journal.open(fixture.sourceId, fixture.path);
      assert.equal(second.record.spotId, 4242);
      second.release();
    } finally {
      await journal.close();
    }
  });

  it('records of spots without galleries share one append-only log; a torn last line counts as no record', async () => {
    const paths = ['a', 'b'].map((name) => {
      const path = join(workspace.dir, `${name}.spot.json`);
      writeFileSync(path, JSON.stringify(spot(`log-${name}`)));
      return { path };
    });
    const first = await runImport(paths, options());
    assert.deepEqual(
      first.spots.map((s) => s.status),
      ['done', 'done'],
    );
    const log = first.spots[0].journalFile!;
    assert.equal(first.spots[1].journalFile, log);
    assert.ok(log.endsWith('journal.jsonl'));
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    assert.deepEqual(lines.map((line) => JSON.parse(line).sourceId).sort(), ['log-a', 'log-b']);
    assert.deepEqual(
      readdirSync(dirname(log)).filter((name) => name.endsWith('.json') && name !== 'account.json'),
      [],
      'no file per spot',
    );
    // A kill in the middle of the last append: that spot is imported again (an upsert), the other is not.
    const torn = lines.find((line) => JSON.parse(line).sourceId === 'log-b')!;
    writeFileSync(log, `${lines.filter((line) => line !== torn).join('\n')}\n${torn.slice(0, 40)}`);
    const again = await runImport(paths, options());
    assert.deepEqual(
      again.spots.map((s) => s.imported),
      ['unchanged', 'final'],
    );
    assert.equal(workspace.setup.sandbox.counters.imports, 3);
  });

  it('a spot recorded without media that gets media later: its newer line, with the gallery, wins', async () => {
    const fixture = writeSpot(workspace.dir, 'walk', { fld_1_3: ['01.jpg'] });
    const plain = await runImport([{ path: fixture.path }], options({ media: false }));
    assert.ok(plain.spots[0].journalFile!.endsWith('journal.jsonl'));
    const withMedia = await runImport([{ path: fixture.path }], options());
    assert.equal(withMedia.spots[0].status, 'done', withMedia.spots[0].reason);
    assert.equal(withMedia.spots[0].journalFile, plain.spots[0].journalFile);
    const again = await runImport([{ path: fixture.path }], options());
    assert.equal(again.spots[0].imported, 'unchanged');
    assert.equal(workspace.setup.sandbox.counters.uploads, 1, 'the file went up once');
  });

  it('streams inputs from a generator, taking them only as needed, and settles each once in input order of claims', async () => {
    const made: string[] = [];
    function* inputs() {
      for (const name of ['s1', 's2', 'dup', 's3']) {
        const path = join(workspace.dir, `${name}.spot.json`);
        writeFileSync(path, JSON.stringify(spot(name === 'dup' ? 's1' : name)));
        made.push(name);
        yield { path, label: name };
      }
    }
    const settled: Array<[number, string, string]> = [];
    const end = await streamImport(inputs(), options({ concurrency: 2 }), (position, outcome) => settled.push([position, outcome.label, outcome.status]));
    assert.equal(end.stop, undefined);
    assert.deepEqual(
      settled.sort((x, y) => x[0] - y[0]),
      [
        [0, 's1', 'done'],
        [1, 's2', 'done'],
        [2, 'dup', 'invalid'],
        [3, 's3', 'done'],
      ],
    );
    assert.deepEqual(made, ['s1', 's2', 'dup', 's3']);
    assert.equal(workspace.setup.sandbox.counters.imports, 3, 'the second document with source_id s1 was not sent');
  });

  it('media: false sends each document as it is and leaves its media folder alone', async () => {
    const fixture = writeSpot(workspace.dir, 'walk', { fld_1_3: ['01.jpg'] });
    const run = await runImport([{ path: fixture.path }], options({ media: false }));
    assert.equal(run.spots[0].status, 'done', run.spots[0].reason);
    assert.equal(run.spots[0].withMedia, false);
    assert.equal(workspace.setup.sandbox.counters.uploads, 0);
    assert.equal(workspace.setup.sandbox.spotBySourceId(fixture.sourceId)?.attributes.state, 2);
    assert.ok(readdirSync(workspace.dir).includes('walk.media'));
  });
  it('a spot is settled only once its record is written to the log, the records of spots that finish together in one write', async () => {
    const paths = Array.from({ length: 24 }, (_, i) => {
      const path = join(workspace.dir, `w${i}.spot.json`);
      writeFileSync(path, JSON.stringify(spot(`written-${i}`)));
      return { path };
    });
    const fs = require('node:fs') as typeof import('node:fs');
    const real = fs.writeSync;
    let logWrites = 0;
    (fs as { writeSync: unknown }).writeSync = (fd: number, ...rest: unknown[]) => {
      if (/journal\.jsonl$/.test(fs.readlinkSync(`/proc/self/fd/${fd}`))) logWrites++;
      return (real as (...args: unknown[]) => number)(fd, ...rest);
    };
    const unrecorded: string[] = [];
    try {
      const end = await streamImport(paths, options({ concurrency: 8 }), (_position, outcome) => {
        const log = readFileSync(outcome.journalFile!, 'utf8');
        if (outcome.status !== 'done' || !log.includes(`"sourceId":"${outcome.sourceId}"`)) unrecorded.push(`${outcome.sourceId}: ${outcome.status}`);
      });
      assert.equal(end.stop, undefined);
    } finally {
      (fs as { writeSync: unknown }).writeSync = real;
    }
    assert.deepEqual(unrecorded, [], 'every spot was in the log when it was settled');
    if (process.platform === 'linux') assert.ok(logWrites < 24, `${logWrites} writes to the log for 24 spots`);
  });
});
