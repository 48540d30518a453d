import * as assert from 'node:assert/strict';
import { appendFileSync, readFileSync, rmSync, writeFileSync, existsSync, unlinkSync, symlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { TokenSource, defaultTokenUrl } from '../../src/core/api/tokenSource';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { runImport, serviceUrlOf, type SpotInput, type ImportProgress, type SpotStep, writeSpotFileInPlace } from '../../src/core/import';
import { JournalLockedError, ImportJournal, defaultJournalDir } from '../../src/core/journal';
import { DEMO_CLIENT } from '../../src/sandbox/types';
import { startCore, useCoreWorkspace } from './helpers/coreSetup';
import { assertFinished, mediaBytes, writeSpot } from './helpers/workflowFixtures';
import { replyLosingProxy, type WorkflowProxy } from './helpers/workflowProxy';
import { testAccounts } from './helpers/testAccounts';

describe('media workflow: spots with their media in one step', () => {
  const workspace = useCoreWorkspace('spot-media-');
  const options = workspace.workflowOptions;
  let proxy: WorkflowProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  const counts = () => {
    const { imports, uploads, galleryReads, mediaOrders } = workspace.setup.sandbox.counters;
    return { imports, uploads, galleryReads, mediaOrders };
  };

  it('runs the whole workflow for one spot with two gallery fields and writes the ids back, formatting kept', async () => {
    const fixture = writeSpot(workspace.dir, 'walk', { fld_1_3: ['01-start.jpg', '2-bridge.jpg', '10-end.jpg'], fld_1_4: ['map.png'] });
    const original = readFileSync(fixture.path, 'utf8');
    const steps: SpotStep[] = [];
    const progress: ImportProgress[] = [];
    const run = await runImport([{ path: fixture.path }], options({ onStep: (s) => steps.push(s), onProgress: (p) => progress.push(p) }));

    const [spot] = run.spots;
    assert.equal(spot.status, 'done', spot.reason);
    assert.equal(spot.imported, 'final');
    assert.equal(spot.state, 1);
    assert.deepEqual(spot.remaining, []);
    assert.deepEqual(
      spot.galleries.map((g) => [g.field, g.files, g.uploaded, g.skipped, g.failed.length]),
      [
        ['fld_1_3', 3, 3, 0, 0],
        ['fld_1_4', 1, 1, 0, 0],
      ],
    );
    assert.equal(spot.writeBack.status, 'written');
    assertFinished(workspace.setup.sandbox, [fixture]);
    const ids = spot.galleries.map((g) => g.galleryId!);
    const expected = original
      .replace('"state": 2', '"state": 1')
      .replace('"fld_1_3": null', `"fld_1_3": ${ids[0]}`)
      .replace('"fld_1_4": null', `"fld_1_4": ${ids[1]}`);
    assert.equal(readFileSync(fixture.path, 'utf8'), expected, 'only the ids and the state changed; indentation and order are as written');
    assert.deepEqual(counts(), { imports: 2, uploads: 4, galleryReads: 4, mediaOrders: 0 }, 'uploads in name order need no order request');

    assert.deepEqual([...new Set(steps.map((s) => s.step))], ['import-pending', 'upload', 'import-final', 'write-back']);
    const token = (await workspace.setup.tokens.getToken()).value;
    assert.ok(
      steps.every((s) => !s.message.includes(token) && !s.message.includes(DEMO_CLIENT.clientSecret)),
      'no secret in a step line',
    );
    assert.deepEqual(progress[0], { kind: 'spot', index: 1, total: 1, label: fixture.path });
    const lastBytes = progress.filter((p) => p.kind === 'bytes' && p.file === 'fld_1_4/map.png').at(-1);
    assert.ok(lastBytes?.kind === 'bytes' && lastBytes.sentBytes === lastBytes.totalBytes && lastBytes.totalBytes === 2048);
    assert.equal(progress.at(-1)?.kind, 'spotDone');
    assert.match(readFileSync(join(workspace.dir, '.spot-import', '.gitignore'), 'utf8'), /^\*$/m, 'git ignores the journal by itself');
  });

  it('a second run does nothing and sends no upload', async () => {
    const fixture = writeSpot(workspace.dir, 'again', { fld_1_3: ['a.jpg', 'b.jpg', 'c.jpg'] }, { direct: true });
    assert.equal((await runImport([{ path: fixture.path }], options())).spots[0].status, 'done');
    const before = counts();
    const text = readFileSync(fixture.path, 'utf8');
    const [spot] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(spot.status, 'done');
    assert.equal(spot.imported, 'unchanged');
    assert.equal(spot.galleries[0].skipped, 3);
    assert.equal(spot.writeBack.status, 'unchanged');
    assert.deepEqual(counts(), before, 'not a single request');
    assert.equal(readFileSync(fixture.path, 'utf8'), text);
  });

  it('an existing gallery gets only the missing files, and its order follows the names', async () => {
    const fixture = writeSpot(workspace.dir, 'grow', { fld_1_3: ['b.jpg', 'd.jpg'] });
    const first = (await runImport([{ path: fixture.path }], options())).spots[0];
    assert.equal(first.status, 'done');
    const galleryId = first.galleries[0].galleryId!;
    assert.match(readFileSync(fixture.path, 'utf8'), new RegExp(`"fld_1_3": ${galleryId}`), 'the document names its gallery now');
    for (const name of ['a.jpg', 'c.jpg']) {
      const bytes = mediaBytes(`grow/new/${name}`);
      writeFileSync(join(workspace.dir, 'grow.media', 'fld_1_3', name), bytes);
      fixture.media.fld_1_3.push({ name, bytes });
    }
    fixture.media.fld_1_3.sort((x, y) => x.name.localeCompare(y.name));
    const before = counts();
    const [spot] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(spot.status, 'done', spot.reason);
    assert.deepEqual([spot.galleries[0].uploaded, spot.galleries[0].skipped, spot.galleries[0].order], [2, 2, 'set']);
    assert.equal(counts().uploads - before.uploads, 2, 'only the two new files were sent');
    assert.equal(counts().mediaOrders - before.mediaOrders, 1);
    assert.equal(spot.imported, 'unchanged', 'the document already said state 1 and its gallery id');
    assertFinished(workspace.setup.sandbox, [fixture]);
  });

  it('without its journal, a gallery holding as many media as files counts as complete; one holding fewer is reported and gets nothing', async () => {
    const fixture = writeSpot(workspace.dir, 'lost', { fld_1_3: ['a.jpg', 'b.jpg'] }, { direct: true });
    assert.equal((await runImport([{ path: fixture.path }], options())).spots[0].status, 'done');
    rmSync(defaultJournalDir(workspace.dir), { recursive: true });
    let before = counts();
    let [spot] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(spot.status, 'done', spot.reason);
    assert.deepEqual([spot.galleries[0].uploaded, spot.galleries[0].skipped, spot.galleries[0].order], [0, 2, 'kept']);
    assert.equal(counts().uploads, before.uploads, 'nothing sent twice');

    rmSync(defaultJournalDir(workspace.dir), { recursive: true });
    writeFileSync(join(workspace.dir, 'lost.media', 'c.jpg'), mediaBytes('lost/c'));
    before = counts();
    [spot] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(spot.status, 'failed');
    assert.match(spot.reason ?? '', /holds 2 media the journal does not know, and 3 files .* nothing was sent/);
    assert.equal(counts().uploads, before.uploads);
    assert.equal(counts().imports, before.imports, 'a spot with a file missing is not imported as done');
  });

  it('without its journal and with the document still saying null, the gallery the service hands back is matched by count, not filled twice', async () => {
    const fixture = writeSpot(workspace.dir, 'nulls', { fld_1_3: ['a.jpg', 'b.jpg'] }, { direct: true });
    assert.equal((await runImport([{ path: fixture.path }], options({ writeBack: false }))).spots[0].status, 'done');
    rmSync(defaultJournalDir(workspace.dir), { recursive: true });
    const before = counts();
    const [spot] = (await runImport([{ path: fixture.path }], options({ writeBack: false }))).spots;
    assert.equal(spot.status, 'done', spot.reason);
    assert.deepEqual([spot.galleries[0].uploaded, spot.galleries[0].skipped], [0, 2]);
    assert.equal(counts().uploads, before.uploads, 'nothing sent twice');
    fixture.media.fld_1_3.sort((x, y) => x.name.localeCompare(y.name));
    const galleryId = workspace.setup.sandbox.spotBySourceId(fixture.sourceId)!.attributes.fld_1_3 as number;
    assert.equal(workspace.setup.sandbox.gallery(galleryId)!.mediaIds.length, 2);
  });

  it('checks the document and its media before anything is sent and reports every problem together', async () => {
    writeSpot(workspace.dir, 'bad', { fld_1_3: ['b.jpg'], fld_1_5: ['x.jpg'], fld_9_9: ['y.jpg'] });
    const path = join(workspace.dir, 'bad.spot.json');
    const document = JSON.parse(readFileSync(path, 'utf8'));
    delete document.data.attributes.fld_9_9;
    document.data.attributes.fld_1_5 = 'a text';
    writeFileSync(path, JSON.stringify(document, null, 2));
    writeFileSync(join(workspace.dir, 'bad.media', 'fld_1_3', 'a.jpg'), '');
    writeFileSync(join(workspace.dir, 'bad.media', 'fld_1_3', 'c.jpg'), readFileSync(join(workspace.dir, 'bad.media', 'fld_1_3', 'b.jpg')));
    writeFileSync(join(workspace.dir, 'bad.media', 'fld_1_3', 'notes.txt'), 'notes');
    const [spot] = (await runImport([{ path }], options())).spots;
    assert.equal(spot.status, 'invalid');
    const text = readFileSync(path, 'utf8');
    const messages = spot.problems.map((p) => p.message);
    assert.equal(spot.problems.length, 5, messages.join('\n'));
    assert.ok(messages.some((m) => /fld_1_3\/a\.jpg: the file is empty/.test(m)));
    assert.ok(messages.some((m) => /fld_1_3\/c\.jpg: has the same content as fld_1_3\/b\.jpg/.test(m)));
    assert.ok(messages.some((m) => /fld_1_3\/notes\.txt: type text\/plain is not accepted/.test(m)));
    assert.ok(messages.some((m) => /bad\.media\/fld_9_9 names no gallery field/.test(m)));
    const holds = spot.problems.find((p) => /fld_1_5 has media .* holds "a text"/.test(p.message));
    assert.ok(holds);
    assert.equal(text.slice(holds.offset, holds.offset + holds.length), '"a text"', 'placed on the value in the document');
    assert.ok(spot.problems.filter((p) => p.file).length >= 4, 'file problems name their file');
    assert.deepEqual(counts(), { imports: 0, uploads: 0, galleryReads: 0, mediaOrders: 0 }, 'nothing was sent');
  });

  // A reply lost after the sandbox stored the file, or one that drips past the request deadline
  // after the whole file was sent: either way the upload is uncertain, and the gallery settles it.
  for (const [fault, what] of [
    ['lose', 'was lost'],
    ['drip', 'drips past the deadline'],
  ] as const) {
    it(`an upload whose reply ${what} is found in the gallery by its new id, not sent again (service renames files)`, async function () {
      this.timeout(20_000);
      await workspace.setup.sandbox.close();
      workspace.setup = await startCore({ renameMedia: true });
      let uploads = 0;
      proxy = await replyLosingProxy(workspace.setup.sandbox.baseUrl, ({ method, path }) =>
        method === 'POST' && /\/media$/.test(path) && ++uploads === 2 ? fault : 'pass',
      );
      const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(proxy.url), ...DEMO_CLIENT });
      const client = new ServiceClient({ baseUrl: proxy.url, tokens, deadlineMs: 500, retry: { baseMs: 5, maxMs: 50 } });
      const fixture = writeSpot(workspace.dir, `reply-${fault}`, { fld_1_3: ['a.jpg', 'b.jpg', 'c.jpg'] }, { direct: true });
      const steps: string[] = [];
      const [spot] = (await runImport([{ path: fixture.path }], options({ client, onStep: (s) => steps.push(s.message) }))).spots;
      assert.equal(proxy.lost, 1, 'one reply went wrong after the sandbox stored the file');
      assert.equal(spot.status, 'done', spot.reason);
      assert.equal(workspace.setup.sandbox.counters.uploads, 3, 'the file whose reply went wrong was not sent again');
      assert.ok(
        steps.some((line) => /b\.jpg: no usable reply, but gallery \d+ holds it as media \d+/.test(line)),
        steps.join('\n'),
      );
      assertFinished(workspace.setup.sandbox, [fixture]);
    });
  }

  it('an upload that did not arrive (503, dropped connection) is sent again until it is in the gallery once', async () => {
    workspace.setup.sandbox.setFaults({ rate503: 0.3, rateDrop: 0.3, appliesTo: ['upload'], seed: 11 });
    const fixture = writeSpot(workspace.dir, 'flaky', { fld_1_3: ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'] }, { direct: true });
    const [spot] = (await runImport([{ path: fixture.path }], options({ retry: { baseMs: 1, maxMs: 5, maxRetries: 10 } }))).spots;
    assert.ok(workspace.setup.sandbox.counters.faultsInjected > 0, 'faults were injected');
    assert.equal(spot.status, 'done', spot.reason);
    workspace.setup.sandbox.setFaults({});
    assertFinished(workspace.setup.sandbox, [fixture]);
  });

  it('writing back can be refused: the document stays as it is, the journal remembers, and a second run sends nothing', async () => {
    const fixture = writeSpot(workspace.dir, 'keep', { fld_1_3: ['a.jpg'] }, { direct: true });
    const text = readFileSync(fixture.path, 'utf8');
    const [spot] = (await runImport([{ path: fixture.path }], options({ writeBack: false }))).spots;
    assert.equal(spot.status, 'done');
    assert.equal(spot.writeBack.status, 'disabled');
    assert.match(spot.writeBack.reason ?? '', /journal .* remembers/);
    assert.equal(readFileSync(fixture.path, 'utf8'), text);
    assert.equal(workspace.setup.sandbox.spotBySourceId(fixture.sourceId)?.attributes.state, 1);
    const before = counts();
    const [again] = (await runImport([{ path: fixture.path }], options({ writeBack: false }))).spots;
    assert.equal(again.status, 'done');
    assert.deepEqual(counts(), before, 'the journal knows the galleries and the final import: nothing is sent');
    assert.equal(workspace.setup.sandbox.spotBySourceId(fixture.sourceId)?.attributes.state, 1, 'the spot was not set back to in progress');
  });

  it('a document changed on disk since it was read is not overwritten; the next run writes the ids into the new text', async () => {
    const fixture = writeSpot(workspace.dir, 'edited', { fld_1_3: ['a.jpg'] }, { direct: true });
    const edited = readFileSync(fixture.path, 'utf8').replace('"latitude": 48.2', '"latitude": 48.25');
    const [spot] = (
      await runImport(
        [{ path: fixture.path }],
        options({
          writeBack: async (request) => {
            writeFileSync(request.path, edited); // a person saves the file while the run is busy
            return writeSpotFileInPlace(request);
          },
        }),
      )
    ).spots;
    assert.equal(spot.status, 'done');
    assert.equal(spot.writeBack.status, 'conflict');
    assert.equal(readFileSync(fixture.path, 'utf8'), edited, 'the newer text was kept');
    assert.deepEqual(spot.remaining, ['write the gallery ids and state into the document']);
    const before = counts();
    const [again] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(again.writeBack.status, 'written');
    assert.equal(counts().uploads, before.uploads);
    assert.equal(counts().imports, before.imports + 1, 'the edited text is imported once');
    assert.equal(workspace.setup.sandbox.spotBySourceId(fixture.sourceId)?.attributes.latitude, 48.25);
    assertFinished(workspace.setup.sandbox, [fixture]);
  });

  it('a damaged journal is named with what to do, and nothing is sent', async () => {
    const fixture = writeSpot(workspace.dir, 'broken', { fld_1_3: ['a.jpg'] }, { direct: true });
    const journal = new ImportJournal(
      defaultJournalDir(workspace.dir),
      { serviceUrl: serviceUrlOf(workspace.setup.client.apiRoot), clientId: DEMO_CLIENT.clientId },
      testAccounts,
    );
    const opened = await journal.open(fixture.sourceId, fixture.path);
    const file = opened.file;
    await opened.save();
    opened.release();
    await journal.close();
    // The spot's last line, damaged.
    appendFileSync(file, `{"format": 1, "sourceId":"${fixture.sourceId}", "galleries": {"fld_1_3": {"galleryId": "x"\n`);
    const [spot] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(spot.status, 'failed');
    assert.ok(spot.reason?.includes(file), spot.reason);
    assert.match(
      spot.reason ?? '',
      /The last line for source_id "[^"]+" in the journal .* cannot be used: it is not valid JSON .* nothing was sent for this spot\. Repair the line, or delete it/,
    );
    assert.deepEqual(counts(), { imports: 0, uploads: 0, galleryReads: 0, mediaOrders: 0 });
    assert.ok(!existsSync(join(journal.accountDir, 'run.lock')), 'the run lock was released');
  });

  it('one process at a time uses an account journal, one run at a time a spot; a lock left by a dead process is taken over', async () => {
    const journal = new ImportJournal(defaultJournalDir(workspace.dir), { serviceUrl: 'http://x', clientId: 'c' }, testAccounts);
    const held = await journal.open('one', 'one.spot.json');
    await assert.rejects(journal.open('one', 'one.spot.json'), /already working on source_id "one"/);
    held.release();
    (await journal.open('one', 'one.spot.json')).release();
    await journal.close();
    const lock = join(journal.accountDir, 'run.lock');
    const host = hostname();
    symlinkSync(JSON.stringify({ pid: process.ppid, host }), lock);
    await assert.rejects(journal.open('two', 'two.spot.json'), new RegExp(`Another run \\(process ${process.ppid} on .*\\) is using the journal`));
    const fixtures = [
      writeSpot(workspace.dir, 'l1', { fld_1_3: ['a.jpg'] }, { direct: true }),
      writeSpot(workspace.dir, 'l2', { fld_1_3: ['a.jpg'] }, { direct: true }),
    ];
    const run = await runImport(
      fixtures.map((f) => ({ path: f.path })),
      options({
        journal: { accounts: testAccounts, dir: defaultJournalDir(workspace.dir), account: { serviceUrl: 'http://x', clientId: 'c' } },
        concurrency: 1,
      }),
    );
    assert.equal(run.stop?.kind, 'journal', 'a journal held by another process stops the run before it starts');
    assert.ok(run.stop.error instanceof JournalLockedError);
    assert.match(run.stop.error.message, /is using the journal/);
    assert.ok(
      run.spots.every((s) => s.status === 'not-started' && s.failure?.because === 'journal' && /another run is using the journal/.test(s.reason ?? '')),
    );
    assert.deepEqual(counts(), { imports: 0, uploads: 0, galleryReads: 0, mediaOrders: 0 });
    unlinkSync(lock);
    symlinkSync(JSON.stringify({ pid: 2 ** 22 + 12345, host }), lock);
    (await journal.open('two', 'two.spot.json')).release();
    await journal.close();
    assert.ok(!existsSync(lock));
  });

  it('cancel stops after the current request, says what is left, and a second run finishes it', async () => {
    const fixture = writeSpot(workspace.dir, 'stop', { fld_1_3: ['a.jpg', 'b.jpg', 'c.jpg'] }, { direct: true });
    const controller = new AbortController();
    const run = await runImport([{ path: fixture.path }], options({ signal: controller.signal, onStep: (s) => s.step === 'upload' && controller.abort() }));
    const [spot] = run.spots;
    assert.equal(spot.status, 'cancelled');
    assert.equal(run.stop?.kind, 'cancelled');
    assert.match(run.stop.error.message, /Cancelled/);
    assert.equal(workspace.setup.sandbox.counters.uploads, 1, 'nothing was sent after the request in flight');
    assert.deepEqual(spot.remaining, [
      `upload 2 of 3 files to gallery ${spot.galleries[0].galleryId} (fld_1_3)`,
      `set the media order of gallery ${spot.galleries[0].galleryId} (fld_1_3)`,
      'import with state 1 and every gallery id',
      'write the gallery ids and state into the document',
    ]);
    const [again] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(again.status, 'done', again.reason);
    assert.deepEqual([again.galleries[0].uploaded, again.galleries[0].skipped], [2, 1]);
    assertFinished(workspace.setup.sandbox, [fixture]);
  });

  it('abortSignal stops an upload in flight (a second Ctrl-C): the run ends at once, and the next run settles the upload and finishes, every file once', async function () {
    this.timeout(15_000);
    const fixture = writeSpot(workspace.dir, 'abort', { fld_1_3: ['a.jpg', 'b.jpg'] }, { direct: true });
    // Uploads hang: the service takes 60 s to answer them.
    workspace.setup.sandbox.setFaults({ latencyMs: 60_000, appliesTo: ['upload'] });
    const stop = new AbortController();
    const abort = new AbortController();
    const run = await runImport(
      [{ path: fixture.path }],
      options({
        signal: stop.signal,
        abortSignal: abort.signal,
        onProgress: (event) => {
          // Both presses once the first file is on its way.
          if (event.kind === 'bytes' && !abort.signal.aborted) {
            stop.abort();
            setTimeout(() => abort.abort(), 200);
          }
        },
      }),
    );
    const [spot] = run.spots;
    assert.equal(spot.status, 'cancelled', spot.reason);
    assert.ok(
      spot.remaining.some((left) => left.startsWith('upload')),
      `what is left names the uploads: ${spot.remaining.join(' / ')}`,
    );
    workspace.setup.sandbox.setFaults({});
    const [again] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(again.status, 'done', again.reason);
    assertFinished(workspace.setup.sandbox, [fixture]);
  });

  it('files directly in the media folder still go to their gallery on the next run when another fld_ member holds a number', async () => {
    const fixture = writeSpot(workspace.dir, 'solo', { fld_1_3: ['photo.jpg'] }, { direct: true, extra: { fld_1_4: 77 } });
    assert.equal((await runImport([{ path: fixture.path }], options())).spots[0].status, 'done');
    // Written back, the document now has two fld_ members holding numbers; the journal knows which one is the gallery.
    const [again] = (await runImport([{ path: fixture.path }], options())).spots;
    assert.equal(again.status, 'done', again.reason);
    assert.deepEqual([again.galleries[0].field, again.galleries[0].uploaded], ['fld_1_3', 0]);
  });

  it('a document without a media folder goes through the plain import, once', async () => {
    const path = join(workspace.dir, 'plain.spot.json');
    writeFileSync(path, JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: 'plain', latitude: 1, longitude: 2 } } }));
    const inputs: SpotInput[] = [{ path }];
    const [spot] = (await runImport(inputs, options())).spots;
    assert.deepEqual([spot.status, spot.withMedia, spot.imported, spot.writeBack.status], ['done', false, 'final', 'unchanged']);
    const [again] = (await runImport(inputs, options())).spots;
    assert.equal(again.imported, 'unchanged');
    assert.equal(workspace.setup.sandbox.counters.imports, 1);
    unlinkSync(path);
  });
});
