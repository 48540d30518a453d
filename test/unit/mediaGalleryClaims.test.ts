// A gallery belongs to one spot. A document copied from a finished one keeps that spot's gallery
// ids; given a new source_id and media of its own, it must not take the other spot's gallery over
// (its files would be "found" there by count and never sent, and the run would say done). Two
// documents of one run that name the same gallery would upload into it at the same time, which
// the way lost uploads are settled (one upload at a time per gallery) does not allow.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport } from '../../src/core/import';
import { spot, useCoreWorkspace } from './helpers/coreSetup';
import { assertFinished, mediaBytes, writeSpot } from './helpers/workflowFixtures';

describe('media workflow: a gallery named by another spot', () => {
  const workspace = useCoreWorkspace('spot-gallery-claims-');
  const options = workspace.workflowOptions;

  /** b.spot.json: a copy of `from` with source_id src-b and two media files of its own. */
  function copyWithOwnMedia(from: string): string {
    const path = join(workspace.dir, 'b.spot.json');
    writeFileSync(path, readFileSync(from, 'utf8').replace('"src-a"', '"src-b"'));
    mkdirSync(join(workspace.dir, 'b.media', 'fld_1_3'), { recursive: true });
    for (const name of ['x.jpg', 'y.jpg']) writeFileSync(join(workspace.dir, 'b.media', 'fld_1_3', name), mediaBytes(`b/${name}`));
    return path;
  }

  it("a copied document that keeps another spot's gallery id is refused, nothing is sent, and with null it gets a gallery of its own", async () => {
    const a = writeSpot(workspace.dir, 'a', { fld_1_3: ['1.jpg', '2.jpg'] });
    assert.equal((await runImport([{ path: a.path }], options())).spots[0].status, 'done');
    const galleryOfA = workspace.setup.sandbox.spotBySourceId('src-a')!.attributes.fld_1_3 as number;
    const b = copyWithOwnMedia(a.path);
    const { imports, uploads } = workspace.setup.sandbox.counters;

    const [refused] = (await runImport([{ path: b }], options())).spots;
    assert.equal(refused.status, 'failed');
    assert.match(refused.reason ?? '', new RegExp(`gallery ${galleryOfA}\\b.*source_id "src-a"`));
    assert.match(refused.reason ?? '', /fld_1_3 to null/);
    assert.deepEqual([workspace.setup.sandbox.counters.imports, workspace.setup.sandbox.counters.uploads], [imports, uploads], 'nothing was sent');
    assertFinished(workspace.setup.sandbox, [a]);

    writeFileSync(b, readFileSync(b, 'utf8').replace(`"fld_1_3": ${galleryOfA}`, '"fld_1_3": null'));
    const [own] = (await runImport([{ path: b }], options())).spots;
    assert.equal(own.status, 'done', own.reason);
    assert.notEqual(own.galleries[0].galleryId, galleryOfA);
    assert.equal(own.galleries[0].uploaded, 2);
  });

  it('the spot that owns the gallery goes on, in the same run as a copy that is refused, whatever their order', async () => {
    const a = writeSpot(workspace.dir, 'a', { fld_1_3: ['1.jpg'] });
    assert.equal((await runImport([{ path: a.path }], options())).spots[0].status, 'done');
    const b = copyWithOwnMedia(a.path);
    // a gets one more file, a large one: its check (hashing it) ends after the copy's.
    writeFileSync(join(workspace.dir, 'a.media', 'fld_1_3', '2.jpg'), mediaBytes('a/2.jpg', 24 * 1024 * 1024));
    const run = await runImport([{ path: b }, { path: a.path }], options());
    assert.equal(run.spots[0].status, 'failed', 'the copy is refused');
    assert.equal(run.spots[1].status, 'done', `the owner goes on: ${run.spots[1].reason}`);
    assert.equal(run.spots[1].galleries[0].uploaded, 1);
  });

  it('a journal where two source ids name one gallery (left by earlier versions): each of them may still use it, a third may not', async () => {
    const a = writeSpot(workspace.dir, 'a', { fld_1_3: ['1.jpg'] });
    assert.equal((await runImport([{ path: a.path }], options())).spots[0].status, 'done');
    const galleryOfA = workspace.setup.sandbox.spotBySourceId('src-a')!.attributes.fld_1_3 as number;
    // What an earlier version did with a copy: b's record names a's gallery too (appended after a's).
    const journalFile = (await runImport([{ path: a.path }], options())).spots[0].journalFile!;
    const aLine = readFileSync(journalFile, 'utf8').trim().split('\n').pop()!;
    writeFileSync(journalFile, `${readFileSync(journalFile, 'utf8')}${aLine.replace('"sourceId":"src-a"', '"sourceId":"src-b"')}\n`);
    writeFileSync(join(workspace.dir, 'a.media', 'fld_1_3', '2.jpg'), mediaBytes('a/2.jpg'));
    const [owner] = (await runImport([{ path: a.path }], options())).spots;
    assert.equal(owner.status, 'done', owner.reason);
    const c = join(workspace.dir, 'c.spot.json');
    writeFileSync(c, readFileSync(a.path, 'utf8').replace('"src-a"', '"src-c"'));
    mkdirSync(join(workspace.dir, 'c.media', 'fld_1_3'), { recursive: true });
    writeFileSync(join(workspace.dir, 'c.media', 'fld_1_3', 'z.jpg'), mediaBytes('c/z.jpg'));
    const [third] = (await runImport([{ path: c }], options())).spots;
    assert.equal(third.status, 'failed');
    assert.match(third.reason ?? '', new RegExp(`gallery ${galleryOfA}\\b`));
  });

  it('one document naming the same gallery in two fields, each with media, is invalid: nothing is sent, both fields are named', async () => {
    const { pendingGalleries } = await workspace.setup.client.importSpot(spot('both-fields', { state: 2, fld_1_3: null }));
    const galleryId = pendingGalleries[0].galleryId;
    const fixture = writeSpot(workspace.dir, 'both', { fld_1_3: ['1.jpg', '2.jpg'], fld_1_4: ['3.jpg', '4.jpg'] });
    writeFileSync(fixture.path, readFileSync(fixture.path, 'utf8').replace(/"(fld_1_[34])": null/g, `"$1": ${galleryId}`));
    const { imports, uploads } = workspace.setup.sandbox.counters;

    const [outcome] = (await runImport([{ path: fixture.path }], options())).spots;
    // Else the second field's files are matched by count against the first's uploads, and never sent.
    assert.equal(outcome.status, 'invalid', JSON.stringify([outcome.status, outcome.reason, outcome.galleries]));
    const problem = outcome.problems.find((found) => found.severity === 'error');
    assert.equal(problem?.pointer, '/data/attributes/fld_1_4', 'placed on the later field');
    assert.match(problem?.message ?? '', new RegExp(`fld_1_3 and fld_1_4 both name gallery ${galleryId}\\b.*Set fld_1_4 to null`));
    assert.deepEqual([workspace.setup.sandbox.counters.imports, workspace.setup.sandbox.counters.uploads], [imports, uploads], 'nothing was sent');
    assert.equal(workspace.setup.sandbox.gallery(galleryId)!.mediaIds.length, 0);

    // Said so, the document gets a gallery for each field, each holding its own files.
    writeFileSync(fixture.path, readFileSync(fixture.path, 'utf8').replace(`"fld_1_4": ${galleryId}`, '"fld_1_4": null'));
    const [fixed] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(fixed.status, 'done', fixed.reason);
    assertFinished(workspace.setup.sandbox, [fixture]);
  });

  it('two documents of one run naming the same gallery: one uploads into it, the other is refused', async () => {
    const { pendingGalleries } = await workspace.setup.client.importSpot(spot('made-elsewhere', { state: 2, fld_1_3: null }));
    const galleryId = pendingGalleries[0].galleryId;
    // Both documents say the gallery's id (writeSpot writes null for a field with media).
    const [first, second] = ['first', 'second'].map((name) => {
      const fixture = writeSpot(workspace.dir, name, { fld_1_3: [`${name}.jpg`] });
      writeFileSync(fixture.path, readFileSync(fixture.path, 'utf8').replace('"fld_1_3": null', `"fld_1_3": ${galleryId}`));
      return fixture;
    });
    const run = await runImport([{ path: first.path }, { path: second.path }], options());
    // Both are checked at the same time: whichever claims the gallery first keeps it.
    const done = run.spots.filter((outcome) => outcome.status === 'done');
    const refused = run.spots.filter((outcome) => outcome.status === 'failed');
    assert.deepEqual([done.length, refused.length], [1, 1], JSON.stringify(run.spots.map((outcome) => [outcome.status, outcome.reason])));
    // Named as a document of this run, or (once it recorded the gallery) by its source id.
    const other = done[0] === run.spots[0] ? 'first' : 'second';
    assert.match(
      refused[0].reason ?? '',
      new RegExp(`gallery ${galleryId}(, and so does .*${other}\\.spot\\.json in this run|, the gallery of source_id "src-${other}")`),
    );
    assert.equal(workspace.setup.sandbox.gallery(galleryId)!.mediaIds.length, 1);
  });
});
