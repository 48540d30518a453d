// Import Folder on folders of spots with media, end to end in the extension host against the
// in-process sandbox: the per-spot summary (imported, media uploaded, already there, failed with
// the reason), a run cancelled part-way and finished by a second one, and the settings that change
// the run (write-back refused, media order off, keep in progress). What the service holds is read
// back over HTTP as a client would: the gallery's media in display order, then each media's bytes
// from the files route, compared with the files beside the document in name order.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { runFolderImport, type FolderImportSummary } from '../../src/extension/import/importFolder';
import { runImportSpotWithMedia } from '../../src/extension/import/importSpotWithMedia';
import type * as Core from '../../src/core';
import type { RunningSandbox } from '../../src/sandbox/types';
import { installScriptedUi } from './helpers/scriptedUi';
import { closeAllEditors, counters, fixtureUri, TEST_CLIENT, usedSecrets, useTestProfile } from './helpers/testEnv';

let counter = 0;
function uniqueSourceId(prefix: string): string {
  return `it-fm-${prefix}-${Date.now().toString(36)}-${++counter}`;
}

/** A PNG with bytes after its end marker, so every file has content of its own. */
function png(seed: string): Buffer {
  return Buffer.concat([fs.readFileSync(fixtureUri('upload', 'trail-marker.png').fsPath), Buffer.from(`seed:${seed}:${counter}`)]);
}

/** Files of one gallery, written in the order given (not name order, on purpose). */
type Files = Array<[name: string, bytes: Buffer]>;

interface SpotSpec {
  sourceId: string;
  /** Gallery field → files in `<name>.media/<field>/`; `direct` puts them in `<name>.media/` (one field). */
  galleries: Record<string, Files>;
  direct?: boolean;
  attributes?: Record<string, unknown>;
}

/** `<dir>/<name>.spot.json` with each gallery field pending (null), and its media folder. */
function writeSpot(dir: string, name: string, spec: SpotSpec): string {
  const file = path.join(dir, `${name}.spot.json`);
  const attributes: Record<string, unknown> = { topic_id: 1, source_id: spec.sourceId, latitude: 47.07, longitude: 15.44, ...spec.attributes };
  for (const field of Object.keys(spec.galleries)) attributes[field] = null;
  fs.writeFileSync(file, JSON.stringify({ data: { type: 'spots', attributes } }, null, 2) + '\n');
  for (const [field, files] of Object.entries(spec.galleries)) {
    const folder = spec.direct ? path.join(dir, `${name}.media`) : path.join(dir, `${name}.media`, field);
    fs.mkdirSync(folder, { recursive: true });
    for (const [fileName, bytes] of files) fs.writeFileSync(path.join(folder, fileName), bytes);
  }
  return file;
}

/** Bytes of a gallery's files in name order, as a person reads the folder ("9" before "10"). */
function inNameOrder(files: Files): Buffer[] {
  const collator = new Intl.Collator('en', { numeric: true });
  return [...files].sort(([a], [b]) => collator.compare(a, b)).map(([, bytes]) => bytes);
}

function attributesOnDisk(file: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(file, 'utf8')).data.attributes;
}

/** A token of the test client, straight from the sandbox's token endpoint. */
async function sandboxToken(sandbox: RunningSandbox): Promise<string> {
  const reply = await fetch(`${sandbox.baseUrl}/oauth2/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: TEST_CLIENT.clientId, client_secret: TEST_CLIENT.clientSecret }).toString(),
    signal: AbortSignal.timeout(5_000),
  });
  assert.strictEqual(reply.status, 200, 'token');
  const token = ((await reply.json()) as { access_token: string }).access_token;
  usedSecrets.add(token);
  return token;
}

/** The gallery's media in display order, each with the bytes the files route serves for it. */
async function galleryOverHttp(sandbox: RunningSandbox, galleryId: number): Promise<Array<{ id: number; bytes: Buffer }>> {
  const token = await sandboxToken(sandbox);
  const reply = await fetch(`${sandbox.baseUrl}/api/v2.4/galleries/${galleryId}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(5_000),
  });
  assert.strictEqual(reply.status, 200, `gallery ${galleryId}`);
  const body = (await reply.json()) as { data: { included: Array<{ id: number; attributes: { file: string } }> } };
  const media: Array<{ id: number; bytes: Buffer }> = [];
  for (const item of body.data.included) {
    const file = await fetch(`${sandbox.baseUrl}/files/${item.id}/${item.attributes.file.split('/').map(encodeURIComponent).join('/')}`, {
      signal: AbortSignal.timeout(5_000),
    });
    assert.strictEqual(file.status, 200, `media ${item.id}`);
    media.push({ id: item.id, bytes: Buffer.from(await file.arrayBuffer()) });
  }
  return media;
}

/** Every file exactly once, in the order given. */
async function assertGalleryHolds(sandbox: RunningSandbox, galleryId: number, expected: Buffer[], what: string): Promise<number[]> {
  const media = await galleryOverHttp(sandbox, galleryId);
  const seeds = (list: Buffer[]) => list.map((bytes) => /seed:[^:]+/.exec(bytes.toString('latin1'))?.[0] ?? '?');
  assert.deepStrictEqual(seeds(media.map((item) => item.bytes)), seeds(expected), `${what}: gallery ${galleryId} holds each file once, in name order`);
  media.forEach((item, index) => assert.ok(item.bytes.equals(expected[index]), `${what}: media ${item.id} has the bytes of file ${index + 1}`));
  return media.map((item) => item.id);
}

/** The spot as the service holds it: state 1 (or `state`), and its gallery id for `field`. */
function serviceGallery(sandbox: RunningSandbox, sourceId: string, field: string, state = 1): number {
  const spot = sandbox.spotBySourceId(sourceId);
  assert.ok(spot, `${sourceId} is on the service`);
  assert.strictEqual(spot.attributes.state, state, `${sourceId} has state ${state}`);
  const galleryId = Number(spot.attributes[field]);
  assert.ok(Number.isSafeInteger(galleryId) && galleryId > 0, `${sourceId} has a gallery for ${field}`);
  return galleryId;
}

async function setting(name: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('spotImport').update(name, value, vscode.ConfigurationTarget.Global);
}

function byFile(summary: FolderImportSummary): Map<string, FolderImportSummary['imported'][number]> {
  return new Map(summary.imported.map((entry) => [path.basename(entry.file), entry]));
}

describe('Import Folder media runs', function () {
  this.timeout(90_000);
  const dirs: string[] = [];
  let restore: (() => void) | undefined;
  const tempDir = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    restore?.();
    restore = undefined;
    await closeAllEditors();
    for (const name of ['bulkImport.concurrency', 'media.writeBack', 'media.setOrder', 'media.keepInProgress']) await setting(name, undefined);
  });
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists per spot imported, media uploaded, already there and failed with the reason; galleries hold each file once in name order; invalid spots untouched; a picked failure opens its file', async () => {
    const { services, sandbox } = await useTestProfile();
    const dir = tempDir('it-fm-summary-');
    const a: SpotSpec = {
      sourceId: uniqueSourceId('a'),
      galleries: {
        fld_1_3: [
          ['03-c.png', png('a3')],
          ['01-a.png', png('a1')],
          ['02-b.png', png('a2')],
        ],
        fld_1_4: [
          ['10.png', png('a10')],
          ['9.png', png('a9')],
        ],
      },
    };
    const b: SpotSpec = {
      sourceId: uniqueSourceId('b'),
      direct: true,
      galleries: {
        fld_1_3: [
          ['photo-2.png', png('b2')],
          ['photo-1.png', png('b1')],
        ],
      },
    };
    const c: SpotSpec = {
      sourceId: uniqueSourceId('c'),
      galleries: {
        fld_1_3: [
          ['1.png', png('c1')],
          ['2.png', png('c2')],
        ],
      },
    };
    const d: SpotSpec = {
      sourceId: uniqueSourceId('d'),
      galleries: {
        fld_1_3: [
          ['1.png', png('d1')],
          ['notes.txt', Buffer.from('not media')],
        ],
      },
    };
    const e: SpotSpec = { sourceId: uniqueSourceId('e'), galleries: { fld_1_3: [['1.png', png('e1')]] }, attributes: { latitude: undefined } };
    const files = { a: writeSpot(dir, 'a', a), b: writeSpot(dir, 'b', b), c: writeSpot(dir, 'c', c), d: writeSpot(dir, 'd', d), e: writeSpot(dir, 'e', e) };
    const fSourceId = uniqueSourceId('f');
    fs.writeFileSync(
      path.join(dir, 'f.spot.json'),
      JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: fSourceId, latitude: 1, longitude: 2 } } }),
    );
    const invalidBefore = { d: fs.readFileSync(files.d), e: fs.readFileSync(files.e) };

    // c was imported with its media before: the folder run finds them there.
    const first = await installScriptedUi([{ kind: 'info', match: `Imported "${c.sourceId}" as new spot` }]);
    restore = first.restore;
    const earlier = await runImportSpotWithMedia(services, vscode.Uri.file(files.c), {});
    first.done();
    assert.strictEqual(earlier?.status, 'done', earlier?.reason);
    await closeAllEditors();

    const before = counters(sandbox);
    const run = await installScriptedUi([
      {
        kind: 'quickPick',
        match: /^Imported 4 of 6 spot documents to Integration sandbox \(7 media uploaded, 2 already there\); 2 failed$/,
        pick: /d\.spot\.json/,
      },
    ]);
    restore = run.restore;
    const summary = await vscode.commands.executeCommand<FolderImportSummary>('spotImport.importFolder', vscode.Uri.file(dir));
    run.done();

    // The result the command returns: each spot with what happened to it.
    assert.ok(
      summary.outcome.spots.some((spot) => spot.withMedia),
      'the media went with the spots',
    );
    assert.strictEqual(summary.total, 6);
    const imported = byFile(summary);
    assert.deepStrictEqual([...imported.keys()].sort(), ['a.spot.json', 'b.spot.json', 'c.spot.json', 'f.spot.json']);
    assert.deepStrictEqual(imported.get('a.spot.json')?.media, { uploaded: 5, skipped: 0 });
    assert.deepStrictEqual(imported.get('b.spot.json')?.media, { uploaded: 2, skipped: 0 });
    assert.deepStrictEqual(imported.get('c.spot.json')?.media, { uploaded: 0, skipped: 2 });
    assert.deepStrictEqual(imported.get('f.spot.json')?.media, { uploaded: 0, skipped: 0 });
    assert.strictEqual(imported.get('a.spot.json')?.kind, 'new');
    assert.strictEqual(imported.get('c.spot.json')?.kind, 'updated');
    const reasons = new Map(summary.failed.map((failure) => [path.basename(failure.file), failure.reason]));
    assert.deepStrictEqual([...reasons.keys()].sort(), ['d.spot.json', 'e.spot.json']);
    assert.match(reasons.get('d.spot.json')!, /notes\.txt: type text\/plain is not accepted.*nothing was sent/);
    assert.match(reasons.get('e.spot.json')!, /latitude.*nothing was sent/);
    assert.deepStrictEqual(summary.notAttempted, []);
    assert.strictEqual(counters(sandbox).uploads - before.uploads, 7, 'only the missing files were sent');

    // The pick: failures first, every spot listed; the picked failure is open.
    const items = run.ui.shown[0].items ?? [];
    assert.strictEqual(items.length, 6);
    assert.ok(
      items.slice(0, 2).every((item) => item.startsWith('$(error) ')),
      `failures first: ${items.join(' | ')}`,
    );
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, files.d, 'the picked failure is open');

    // What the service holds, and what the documents now say.
    for (const [name, spec] of [
      ['a', a],
      ['b', b],
      ['c', c],
    ] as const) {
      for (const [field, list] of Object.entries(spec.galleries)) {
        const galleryId = serviceGallery(sandbox, spec.sourceId, field);
        await assertGalleryHolds(sandbox, galleryId, inNameOrder(list), `${name} ${field}`);
        const onDisk = attributesOnDisk(files[name]);
        assert.strictEqual(onDisk[field], galleryId, `${name}.spot.json holds its gallery id for ${field}`);
        assert.strictEqual(onDisk.state, 1, `${name}.spot.json says state 1`);
      }
    }
    assert.ok(sandbox.spotBySourceId(fSourceId), 'the document without media was imported as it is');
    for (const [name, spec] of [
      ['d', d],
      ['e', e],
    ] as const) {
      assert.strictEqual(sandbox.spotBySourceId(spec.sourceId), undefined, `${name} was not sent`);
      assert.ok(fs.readFileSync(files[name]).equals(invalidBefore[name]), `${name}.spot.json is untouched`);
    }
  });

  it('cancelled in the middle says what is done and what a second run finishes; the second run leaves each file once, in order, state 1, ids in the documents', async () => {
    const { services, sandbox } = await useTestProfile();
    await setting('bulkImport.concurrency', 1);
    const dir = tempDir('it-fm-cancel-');
    const specs = ['a', 'b', 'c', 'd'].map((name) => ({
      name,
      spec: {
        sourceId: uniqueSourceId(`cancel-${name}`),
        galleries: {
          fld_1_3: [
            ['03.png', png(`${name}3`)],
            ['01.png', png(`${name}1`)],
            ['02.png', png(`${name}2`)],
          ] as Files,
        },
      },
    }));
    const files = Object.fromEntries(specs.map(({ name, spec }) => [name, writeSpot(dir, name, spec)]));
    const [, b, c, d] = specs.map(({ spec }) => spec);

    const run = await installScriptedUi([
      {
        kind: 'warning',
        match:
          /^Cancelled: imported 1 of 4 spot documents from .*it-fm-cancel-.* to Integration sandbox \(4 media uploaded, 0 already there\); 2 not attempted; 1 imported but not finished\. What was done stays done; importing the folder again finishes the rest/,
      },
    ]);
    restore = run.restore;
    const cancel = new AbortController();
    const summary = await runFolderImport(services, vscode.Uri.file(dir), {
      signal: cancel.signal,
      // Cancel as the notification's button would, while b's first file is on its way.
      onProgress: (event) => {
        if (event.kind === 'bytes' && event.label.endsWith('b.spot.json')) cancel.abort();
      },
    });
    run.done();
    assert.ok(summary?.outcome);
    assert.strictEqual(summary.stopped, 'cancelled');
    assert.deepStrictEqual(
      summary.imported.map((entry) => path.basename(entry.file)),
      ['a.spot.json'],
    );
    const outcomes = new Map(summary.outcome.spots.map((spot) => [path.basename(spot.path), spot]));
    const bOutcome = outcomes.get('b.spot.json')!;
    assert.strictEqual(bOutcome.status, 'cancelled');
    const bGallery = bOutcome.galleries[0].galleryId!;
    assert.ok(
      bOutcome.remaining.some((step) => step === `upload 2 of 3 files to gallery ${bGallery} (fld_1_3)`),
      `b's remaining work: ${bOutcome.remaining.join('; ')}`,
    );
    assert.ok(bOutcome.remaining.some((step) => /import with state 1/.test(step)));
    assert.deepStrictEqual(
      ['c.spot.json', 'd.spot.json'].map((name) => outcomes.get(name)?.status),
      ['not-started', 'not-started'],
    );
    // The upload in flight finished (it is in the gallery and the journal), nothing after it went out.
    assert.strictEqual(sandbox.gallery(bGallery)?.mediaIds.length, 1);
    assert.strictEqual(sandbox.spotBySourceId(b.sourceId)?.attributes.state, 2);
    assert.strictEqual(sandbox.spotBySourceId(c.sourceId), undefined);
    assert.strictEqual(sandbox.spotBySourceId(d.sourceId), undefined);
    assert.strictEqual(attributesOnDisk(files.a).state, 1);
    assert.strictEqual(attributesOnDisk(files.b).fld_1_3, null, 'b is not written back before it is done');

    const uploadsBefore = counters(sandbox).uploads;
    const again = await installScriptedUi([
      { kind: 'info', match: /^Imported all 4 spot documents from .*it-fm-cancel-.* to Integration sandbox \(8 media uploaded, 4 already there\)\.$/ },
    ]);
    restore = again.restore;
    const second = await runFolderImport(services, vscode.Uri.file(dir), {});
    again.done();
    assert.strictEqual(second?.imported.length, 4);
    assert.deepStrictEqual(second.failed, []);
    assert.strictEqual(counters(sandbox).uploads - uploadsBefore, 8, 'only the files not there yet were sent');
    for (const { name, spec } of specs) {
      const galleryId = serviceGallery(sandbox, spec.sourceId, 'fld_1_3');
      await assertGalleryHolds(sandbox, galleryId, inNameOrder(spec.galleries.fld_1_3), name);
      assert.deepStrictEqual(
        { gallery: attributesOnDisk(files[name]).fld_1_3, state: attributesOnDisk(files[name]).state },
        { gallery: galleryId, state: 1 },
        `${name}.spot.json`,
      );
    }
    assert.strictEqual(serviceGallery(sandbox, b.sourceId, 'fld_1_3'), bGallery, 'b kept the gallery of the first run');
  });

  it('cancelled with several spots in flight (default concurrency): the headline counts add up, and a second run finishes every gallery exactly once', async () => {
    const { services, sandbox } = await useTestProfile();
    const dir = tempDir('it-fm-cancel4-');
    const specs = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({
      name,
      spec: {
        sourceId: uniqueSourceId(`c4-${name}`),
        galleries: {
          fld_1_3: [
            ['2.png', png(`${name}2`)],
            ['1.png', png(`${name}1`)],
            ['3.png', png(`${name}3`)],
          ] as Files,
          fld_1_4: [['x.png', png(`${name}x`)]] as Files,
        },
      },
    }));
    const files = Object.fromEntries(specs.map(({ name, spec }) => [name, writeSpot(dir, name, spec)]));

    const run = await installScriptedUi([
      {
        kind: 'warning',
        match: /^Cancelled: imported \d of 6 spot documents from .*it-fm-cancel4-.* What was done stays done; importing the folder again finishes the rest/,
      },
    ]);
    restore = run.restore;
    const cancel = new AbortController();
    // The first byte of any upload: the spots in flight then each finish the request they are in.
    const summary = await runFolderImport(services, vscode.Uri.file(dir), {
      signal: cancel.signal,
      onProgress: (event) => event.kind === 'bytes' && cancel.abort(),
    });
    run.done();
    assert.strictEqual(summary?.stopped, 'cancelled');
    assert.deepStrictEqual(summary.failed, []);
    assert.ok(summary.imported.length < 6, 'the run stopped early');
    const headline = summary.headline;
    const count = (pattern: RegExp) => Number(pattern.exec(headline)?.[1] ?? 0);
    assert.strictEqual(
      count(/imported (\d+) of 6/) + count(/; (\d+) not attempted/) + count(/; (\d+) imported but not finished/),
      6,
      `each spot counted once: ${headline}`,
    );
    for (const spot of summary.outcome.spots) {
      if (spot.status !== 'done') assert.ok(spot.remaining.length > 0, `${spot.label} says what a second run does`);
    }

    const again = await installScriptedUi([
      { kind: 'info', match: /^Imported all 6 spot documents from .*it-fm-cancel4-.*\(\d+ media uploaded, \d+ already there\)\.$/ },
    ]);
    restore = again.restore;
    const second = await runFolderImport(services, vscode.Uri.file(dir), {});
    again.done();
    assert.strictEqual(second?.imported.length, 6);
    const media = second.imported.reduce((sum, entry) => sum + entry.media!.uploaded + entry.media!.skipped, 0);
    assert.strictEqual(media, 24, 'every file accounted for once across the two runs');
    for (const { name, spec } of specs) {
      for (const [field, list] of Object.entries(spec.galleries)) {
        const galleryId = serviceGallery(sandbox, spec.sourceId, field);
        await assertGalleryHolds(sandbox, galleryId, inNameOrder(list), `${name} ${field}`);
        assert.strictEqual(attributesOnDisk(files[name])[field], galleryId, `${name}.spot.json holds its ${field} gallery id`);
      }
      assert.strictEqual(attributesOnDisk(files[name]).state, 1);
    }
  });

  it('with write-back off leaves the documents as they were; a second run uploads nothing and the spots stay state 1', async () => {
    const { services, sandbox } = await useTestProfile();
    await setting('media.writeBack', false);
    const dir = tempDir('it-fm-nowrite-');
    const specs = ['a', 'b'].map((name) => ({
      name,
      spec: {
        sourceId: uniqueSourceId(`nowrite-${name}`),
        galleries: {
          fld_1_3: [
            ['2.png', png(`${name}2`)],
            ['1.png', png(`${name}1`)],
          ] as Files,
        },
      },
    }));
    const files = Object.fromEntries(specs.map(({ name, spec }) => [name, writeSpot(dir, name, spec)]));
    const original = Object.fromEntries(Object.entries(files).map(([name, file]) => [name, fs.readFileSync(file)]));

    const run = await installScriptedUi([{ kind: 'info', match: /^Imported all 2 spot documents from .* \(4 media uploaded, 0 already there\)\.$/ }]);
    restore = run.restore;
    const summary = await runFolderImport(services, vscode.Uri.file(dir), {});
    run.done();
    assert.strictEqual(summary?.imported.length, 2);
    assert.ok(summary.outcome.spots.every((spot) => spot.writeBack.status === 'disabled'));
    const galleries = new Map<string, number>();
    for (const { name, spec } of specs) {
      assert.ok(fs.readFileSync(files[name]).equals(original[name]), `${name}.spot.json unchanged on disk`);
      const galleryId = serviceGallery(sandbox, spec.sourceId, 'fld_1_3');
      galleries.set(name, galleryId);
      await assertGalleryHolds(sandbox, galleryId, inNameOrder(spec.galleries.fld_1_3), name);
    }

    const before = counters(sandbox);
    const again = await installScriptedUi([{ kind: 'info', match: /^Imported all 2 spot documents from .* \(0 media uploaded, 4 already there\)\.$/ }]);
    restore = again.restore;
    const second = await runFolderImport(services, vscode.Uri.file(dir), {});
    again.done();
    assert.deepStrictEqual(
      second?.imported.map((entry) => entry.media),
      [
        { uploaded: 0, skipped: 2 },
        { uploaded: 0, skipped: 2 },
      ],
    );
    assert.strictEqual(counters(sandbox).uploads, before.uploads, 'nothing uploaded again');
    assert.strictEqual(counters(sandbox).imports, before.imports, 'no import: the journal says the spot is imported as it should be');
    for (const { name, spec } of specs) {
      assert.ok(fs.readFileSync(files[name]).equals(original[name]), `${name}.spot.json still unchanged`);
      assert.strictEqual(serviceGallery(sandbox, spec.sourceId, 'fld_1_3'), galleries.get(name), `${name} kept its gallery`);
      await assertGalleryHolds(sandbox, galleries.get(name)!, inNameOrder(spec.galleries.fld_1_3), name);
    }
  });

  it('with media order off sends no order request and keeps the service order; turned on again, the next run sets the name order', async () => {
    const { services, sandbox } = await useTestProfile();
    const dir = tempDir('it-fm-order-');
    const spec: SpotSpec = {
      sourceId: uniqueSourceId('order'),
      galleries: {
        fld_1_3: [
          ['02.png', png('o2')],
          ['03.png', png('o3')],
        ],
      },
    };
    const file = writeSpot(dir, 'walk', spec);
    const quiet = (headline: RegExp) => installScriptedUi([{ kind: 'info', match: headline }]);

    let run = await quiet(/^Imported all 1 spot documents .*\(2 media uploaded, 0 already there\)\.$/);
    restore = run.restore;
    await runFolderImport(services, vscode.Uri.file(dir), {});
    run.done();
    const galleryId = serviceGallery(sandbox, spec.sourceId, 'fld_1_3');

    // A file that sorts first arrives later: uploaded last, it is last in the service's order.
    const first = png('o1');
    fs.writeFileSync(path.join(dir, 'walk.media', 'fld_1_3', '01.png'), first);
    const all: Files = [['01.png', first], ...spec.galleries.fld_1_3];
    await setting('media.setOrder', false);
    const before = counters(sandbox);
    run = await quiet(/^Imported all 1 spot documents .*\(1 media uploaded, 2 already there\)\.$/);
    restore = run.restore;
    const off = await runFolderImport(services, vscode.Uri.file(dir), {});
    run.done();
    assert.strictEqual(off?.outcome.spots[0].galleries[0].order, 'off');
    assert.strictEqual(counters(sandbox).mediaOrders, before.mediaOrders, 'no order request was sent');
    const uploadOrder = inNameOrder(all);
    await assertGalleryHolds(sandbox, galleryId, [uploadOrder[1], uploadOrder[2], uploadOrder[0]], 'order off: upload order');
    assert.strictEqual(serviceGallery(sandbox, spec.sourceId, 'fld_1_3'), galleryId);
    assert.strictEqual(attributesOnDisk(file).state, 1);

    // The same run with the order on does send one: the check above could have failed.
    await setting('media.setOrder', undefined);
    run = await quiet(/^Imported all 1 spot documents .*\(0 media uploaded, 3 already there\)\.$/);
    restore = run.restore;
    const on = await runFolderImport(services, vscode.Uri.file(dir), {});
    run.done();
    assert.strictEqual(on?.outcome.spots[0].galleries[0].order, 'set');
    assert.ok(counters(sandbox).mediaOrders > before.mediaOrders, 'the order was set');
    await assertGalleryHolds(sandbox, galleryId, uploadOrder, 'order on: name order');
  });

  it('keeps the spots in progress when chosen (the setting for Import Folder, the argument for Import Spot with Media), and a run without it makes them active', async () => {
    const { services, sandbox } = await useTestProfile();
    await setting('media.keepInProgress', true);
    const dir = tempDir('it-fm-keep-');
    const spec: SpotSpec = {
      sourceId: uniqueSourceId('keep'),
      galleries: {
        fld_1_3: [
          ['b.png', png('kb')],
          ['a.png', png('ka')],
        ],
      },
    };
    const file = writeSpot(dir, 'keep', spec);

    let run = await installScriptedUi([{ kind: 'info', match: /^Imported all 1 spot documents .*\(2 media uploaded, 0 already there\)\.$/ }]);
    restore = run.restore;
    const kept = await runFolderImport(services, vscode.Uri.file(dir), {});
    run.done();
    assert.strictEqual(kept?.outcome.spots[0].state, 2);
    const galleryId = serviceGallery(sandbox, spec.sourceId, 'fld_1_3', 2);
    assert.deepStrictEqual({ state: attributesOnDisk(file).state, gallery: attributesOnDisk(file).fld_1_3 }, { state: 2, gallery: galleryId });
    await assertGalleryHolds(sandbox, galleryId, inNameOrder(spec.galleries.fld_1_3), 'kept in progress');

    await setting('media.keepInProgress', undefined);
    const before = counters(sandbox);
    run = await installScriptedUi([{ kind: 'info', match: /^Imported all 1 spot documents .*\(0 media uploaded, 2 already there\)\.$/ }]);
    restore = run.restore;
    await runFolderImport(services, vscode.Uri.file(dir), {});
    run.done();
    assert.strictEqual(serviceGallery(sandbox, spec.sourceId, 'fld_1_3', 1), galleryId);
    assert.strictEqual(attributesOnDisk(file).state, 1);
    assert.strictEqual(counters(sandbox).uploads, before.uploads);

    // Import Spot with Media takes the choice as an argument of the command.
    const single: SpotSpec = { sourceId: uniqueSourceId('keep-one'), galleries: { fld_1_3: [['1.png', png('k1')]] } };
    const singleFile = writeSpot(tempDir('it-fm-keep-one-'), 'one', single);
    run = await installScriptedUi([
      { kind: 'info', match: new RegExp(`^Imported "${single.sourceId}" as new spot \\d+ .* It stays in progress \\(state 2\\)\\.$`) },
    ]);
    restore = run.restore;
    const outcome = await vscode.commands.executeCommand<Core.SpotOutcome>('spotImport.importSpotWithMedia', vscode.Uri.file(singleFile), {
      keepInProgress: true,
    });
    run.done();
    assert.strictEqual(outcome.state, 2);
    serviceGallery(sandbox, single.sourceId, 'fld_1_3', 2);
  });
});
