// spot-import import on the rows of tables (issue 21): the bundled command line against the sandbox
// over loopback. Invalid rows are reported at their cells and skipped, the rest imported with their
// photos in cell order; numbers, category labels, local times and coordinates in EPSG:31256 arrive
// converted; a second run sends nothing; --dry-run sends nothing; the table is never written.
import * as assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/types';
import { ensureCliBuilt, jsonLines, runCli, sandboxEnv } from './helpers/cliProcess';
import { validateJsonLine } from './helpers/cliSchemas';
import { BAEUME_SPOTS, BAEUME_TEXT, GEOJSON_TREES, KOBO_PHOTOS, KOBO_SPOTS, PHOTOS, positionOf, rowsProject, type Project } from './helpers/rowsProject';

type Row = Record<string, unknown>;

function omit(row: Row, keys: readonly string[]): Row {
  return Object.fromEntries(Object.entries(row).filter(([key]) => !keys.includes(key)));
}

describe('spot-import rows: import', function () {
  this.timeout(60_000);
  let project: Project;
  let sandbox: RunningSandbox | undefined;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = rowsProject()));
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
    project.cleanup();
  });

  async function serve(options: SandboxOptions = {}): Promise<Record<string, string>> {
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT], ...options });
    return sandboxEnv(sandbox.baseUrl);
  }

  /**
   * A spot's attributes on the service, without its gallery field and state (checked on their own)
   * and privacy_type (which no mapping here sets: the service fills in 0).
   */
  function stored(sourceId: string, gallery?: string): Row {
    const spot = sandbox!.spotBySourceId(sourceId);
    assert.ok(spot, `${sourceId} is on the service`);
    return omit(spot.attributes, ['state', 'privacy_type', ...(gallery !== undefined ? [gallery] : [])]);
  }

  /** The gallery's media, in its order: file names and bytes. */
  function galleryOf(sourceId: string, field: string): Array<{ file: string; content: string }> {
    const galleryId = sandbox!.spotBySourceId(sourceId)?.attributes[field];
    if (galleryId === undefined) return [];
    const gallery = sandbox!.gallery(galleryId as number);
    assert.ok(gallery, `gallery ${String(galleryId)} of ${sourceId}`);
    return gallery.mediaIds.map((id) => {
      const media = sandbox!.media(id)!;
      return { file: media.file, content: readFileSync(media.path, 'utf8') };
    });
  }

  it('imports the valid rows with their photos in cell order, reports the others at their cells and skips them; a second run sends nothing; the table is never written', async () => {
    const env = await serve();
    const table = project.path('survey.csv');
    const before = { bytes: readFileSync(table), mtimeMs: statSync(table).mtimeMs };

    const first = await runCli(['import', 'survey.csv', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(first.code, 1, first.stderr);
    const records = jsonLines(first.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    const spots = records.filter((record) => record.type === 'spot').sort((a, b) => (a.row as number) - (b.row as number));
    assert.deepEqual(
      spots.map((record) => [record.file, record.row, record.status]),
      [...[1, 2, 3].map((row) => ['survey.csv', row, 'imported']), ...[4, 5, 6, 7, 8, 9, 10, 11, 12].map((row) => ['survey.csv', row, 'failed'])],
    );

    // Each invalid row is reported as validate reports it: the same problems at the same cells.
    const validate = jsonLines((await runCli(['validate', 'survey.csv', '--format', 'json'], { cwd: project.dir })).stdout).filter(
      (record) => record.type === 'document',
    );
    for (const record of spots.filter((spot) => spot.status === 'failed')) {
      const checked = validate.find((document) => document.row === record.row)!;
      assert.equal(record.line, checked.line, `row ${String(record.row)}`);
      assert.deepEqual(record.problems, checked.problems, `row ${String(record.row)}`);
      assert.equal(record.reason, checked.reason, `row ${String(record.row)}`);
    }

    assert.equal(sandbox!.spotCount(), 3, 'only the valid rows were sent');
    for (const [sourceId, attributes] of Object.entries(KOBO_SPOTS)) {
      assert.deepEqual(stored(sourceId, 'fld_7_3'), attributes, sourceId);
      const photos = KOBO_PHOTOS[sourceId];
      assert.deepEqual(
        galleryOf(sourceId, 'fld_7_3'),
        photos.map((file) => ({ file, content: PHOTOS[file] })),
        `${sourceId}: the gallery holds the photos in cell order`,
      );
      if (photos.length > 0) assert.equal(sandbox!.spotBySourceId(sourceId)!.attributes.state, 1, `${sourceId}: state 1 after its media`);
    }
    assert.equal(sandbox!.counters.uploads, 3);

    const counters = { ...sandbox!.counters, apiVersions: undefined, tokenRequests: 0, tokensIssued: 0, galleryReads: 0 };
    const second = await runCli(['import', 'survey.csv', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(second.code, 1, second.stderr);
    const again = jsonLines(second.stdout);
    assert.deepEqual(again.at(-1)!.counts, { alreadyImported: 3, failed: 9 });
    for (const record of again) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    assert.deepEqual(
      { ...sandbox!.counters, apiVersions: undefined, tokenRequests: 0, tokensIssued: 0, galleryReads: 0 },
      counters,
      'nothing imported, uploaded or ordered again',
    );

    assert.deepEqual(readFileSync(table), before.bytes, 'the table is as it was');
    assert.equal(statSync(table).mtimeMs, before.mtimeMs, 'the table was not written');
  });

  it('text: the imported rows by their line, the others at their cells', async () => {
    const env = await serve();
    const result = await runCli(['import', 'survey.csv', '--concurrency', '1'], { cwd: project.dir, env });
    assert.equal(result.code, 1, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.ok(
      lines.some((line) => /^survey\.csv:2: imported "kobo:uuid-1" as new spot \d+ \(state 1\); media: fld_7_3 = \d+ \(2 files: 2 uploaded\)$/.test(line)),
      result.stdout,
    );
    const category = positionOf(readFileSync(project.path('survey.csv'), 'utf8').replace(/^\uFEFF/, ''), ';Beeche;');
    assert.ok(
      lines.includes(
        `survey.csv:${category.line}:${category.column + 1}: not imported: 'Beeche' is not a category of Species (fld_7_1); did you mean 'Beech'?`,
      ),
      result.stdout,
    );
    assert.match(
      result.stderr,
      /^3 of 12 rows of survey\.csv imported, 9 not imported\. Fix them and run the same command again: what was done is not sent again\.$/m,
    );
  });

  it('a German spreadsheet in windows-1252: umlauts, decimal commas, category labels and local times in Europe/Vienna arrive converted', async () => {
    const env = await serve();
    const result = await runCli(['import', 'baeume.csv', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(result.code, 1, result.stderr);
    const records = jsonLines(result.stdout).filter((record) => record.type === 'spot');
    assert.deepEqual(records.map((record) => [record.row, record.status]).sort(), [
      [1, 'imported'],
      [2, 'imported'],
      [3, 'failed'],
      [4, 'failed'],
    ]);
    const repeated = records.find((record) => record.row === 2)!;
    const cell = positionOf(BAEUME_TEXT, ';25.10.2026 02:30;');
    assert.deepEqual(
      (repeated.problems as Array<Record<string, unknown>>).map((problem) => [problem.line, problem.column, problem.severity, problem.rule]),
      [[cell.line, cell.column + 1, 'warning', 'row.value']],
      'the repeated hour goes along as a warning',
    );
    for (const [sourceId, attributes] of Object.entries(BAEUME_SPOTS)) assert.deepEqual(stored(sourceId, 'fld_12_3'), attributes, sourceId);
    assert.deepEqual(galleryOf('kataster-17', 'fld_12_3'), [{ file: 'eiche-1.jpg', content: PHOTOS['eiche-1.jpg'] }]);
    assert.equal(sandbox!.spotCount(), 2);
  });

  it('text: a row the service refuses says why, even when its only problems are warnings', async () => {
    // Every import body is too large for this service (413).
    const env = await serve({ maxImportBytes: 64 });
    const result = await runCli(['import', 'baeume.csv'], { cwd: project.dir, env });
    assert.equal(result.code, 1, result.stderr);
    // Row 2 (line 3) has a warning (its local time is in the repeated hour), and the service's refusal.
    assert.match(result.stdout, /^baeume\.csv:3: not imported: .*413/m);
    assert.match(result.stdout, /^baeume\.csv:3:\d+: warning: Beobachtet am \(fld_12_5\): 2026-10-25 02:30 happened twice/m);
    assert.equal(sandbox!.spotCount(), 0);
  });

  it('a QGIS layer in EPSG:31256: coordinates transformed to WGS 84 within 1e-6 degrees of cs2cs', async () => {
    const env = await serve();
    const result = await runCli(['import', 'kataster.geojson', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(jsonLines(result.stdout).at(-1)!.counts, { imported: 2 });
    for (const tree of GEOJSON_TREES) {
      const attributes = stored(`qgis-${tree.fid}`);
      assert.ok(Math.abs((attributes.latitude as number) - tree.latitude) < 1e-6, `latitude ${String(attributes.latitude)}, cs2cs ${tree.latitude}`);
      assert.ok(Math.abs((attributes.longitude as number) - tree.longitude) < 1e-6, `longitude ${String(attributes.longitude)}, cs2cs ${tree.longitude}`);
      assert.deepEqual(omit(attributes, ['latitude', 'longitude']), {
        topic_id: 12,
        source_id: `qgis-${tree.fid}`,
        fld_12_1: tree.baumart === 'Eiche' ? 1 : 3,
        fld_12_2: tree.hoehe,
        fld_12_6: tree.gepflanzt,
      });
    }
  });

  it('--dry-run checks every row as the import does and sends nothing (no token either); json lines carry row and line', async () => {
    const env = await serve();
    const result = await runCli(['import', 'survey.csv', '--dry-run', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(result.code, 1, result.stderr);
    const records = jsonLines(result.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    const spots = records.filter((record) => record.type === 'spot');
    assert.deepEqual(
      spots.map((record) => [record.row, record.status, typeof record.line]),
      [...[1, 2, 3].map((row) => [row, 'wouldImport', 'number']), ...[4, 5, 6, 7, 8, 9, 10, 11, 12].map((row) => [row, 'failed', 'number'])],
    );
    assert.equal(spots[0].sourceId, 'kobo:uuid-1');
    assert.match(result.stderr, /^Dry run: 3 of 12 rows of survey\.csv would be imported, 9 would not; nothing was sent\.$/m);
    assert.equal(sandbox!.counters.tokenRequests, 0);
    assert.equal(sandbox!.counters.imports, 0);
    assert.equal(sandbox!.counters.uploads, 0);
  });

  it('--no-media: the photos are not looked at; a row that names some gets its gallery pending (state 2, the gallery id listed), and --dry-run says the same', async () => {
    const env = await serve();
    const dry = jsonLines((await runCli(['import', 'survey.csv', '--no-media', '--dry-run', '--format', 'json'], { cwd: project.dir, env })).stdout);
    const result = await runCli(['import', 'survey.csv', '--no-media', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(result.code, 1, result.stderr);
    const records = jsonLines(result.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    // Row 9 names a photo that is not there: without media that is nobody's concern.
    const importable = [1, 2, 3, 9];
    const statuses = (lines: typeof records) =>
      lines
        .filter((record) => record.type === 'spot')
        .map((record) => [record.row, record.status])
        .sort((a, b) => (a[0] as number) - (b[0] as number));
    const expected = (done: string) => Array.from({ length: 12 }, (_, i) => [i + 1, importable.includes(i + 1) ? done : 'failed']);
    assert.deepEqual(statuses(records), expected('imported'));
    assert.deepEqual(statuses(dry), expected('wouldImport'), 'the dry run judges the rows as the run does');
    const first = records.find((record) => record.row === 1)!;
    const pending = first.pendingGalleries as Array<{ field: string; galleryId: number }>;
    assert.deepEqual(
      pending.map((gallery) => gallery.field),
      ['fld_7_3'],
    );
    assert.equal(sandbox!.spotBySourceId('kobo:uuid-1')!.attributes.state, 2, 'in progress while its gallery waits for its photos');
    assert.equal(sandbox!.spotBySourceId('kobo:uuid-1')!.attributes.fld_7_3, pending[0].galleryId);
    assert.deepEqual(records.find((record) => record.row === 3)!.pendingGalleries, [], 'a row without photos has no gallery waiting');
    assert.equal(sandbox!.counters.uploads, 0);
  });

  it('a service that cannot be reached stops the run at once: summary stopped "serviceUnreachable", exit 1', async () => {
    // Tokens are had; every import request's connection is dropped (the client retries, then gives up).
    const env = await serve({ faults: { rateDrop: 1, seed: 1 } });
    const result = await runCli(['import', 'kataster.geojson', '--concurrency', '1', '--format', 'json'], { cwd: project.dir, env, timeoutMs: 60_000 });
    assert.equal(result.code, 1, result.stderr);
    const records = jsonLines(result.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    const summary = records.at(-1)!;
    assert.equal(summary.stopped, 'serviceUnreachable');
    assert.match(
      summary.message as string,
      /^Stopped: the service could not be reached \(.+\)\. 0 rows of kataster\.geojson imported; once it can be reached, run the same command again to finish the rest\.$/,
    );
    const first = records.find((record) => record.type === 'spot' && record.row === 1)!;
    assert.equal(first.status, 'failed');
    assert.equal(first.line, 6, 'the first feature is on line 6');
    assert.match(
      result.stderr,
      /^kataster\.geojson: the rows after the last one reported were not attempted: the run stopped because the service could not be reached\.$/m,
    );
    assert.equal(sandbox!.spotCount(), 0);
  });

  it('a mapping with problems: reported at its lines, nothing is sent (exit 1)', async () => {
    const env = await serve();
    project.write('kataster.mapping.json', JSON.stringify({ topic_id: 12, source_id: 'qgis-{fid}', fields: { fld_12_4: 'Bemerkungen' } }, null, 2));
    const result = await runCli(['import', 'kataster.geojson', '--format', 'json'], { cwd: project.dir, env });
    assert.equal(result.code, 1, result.stderr);
    const records = jsonLines(result.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    assert.deepEqual(
      records.map((record) => record.type),
      ['mapping', 'summary'],
    );
    assert.equal((records[0].problems as Array<{ rule: string }>)[0].rule, 'mapping.unknownColumn');
    assert.equal(sandbox!.counters.tokenRequests, 0);
    assert.equal(sandbox!.spotCount(), 0);
  });
});
