// spot-import convert and spot-import mapping on the rows of tables (issue 21), as the bundled
// command line. convert writes what each valid row stands for as a spot document with its photos
// by the media folder convention, and `import DIR` then puts the same spots on the service as
// importing the table does; a document already there with other content is left unless --force.
// mapping guesses a table's mapping, refuses to write over one, and what it writes validates the
// table.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { ensureCliBuilt, runCli, sandboxEnv } from './helpers/cliProcess';
import { BAEUME_SPOTS, BAEUME_TEXT, KOBO_PHOTOS, KOBO_SPOTS, PHOTOS, rowsProject, windows1252, type Project } from './helpers/rowsProject';

type Attributes = Record<string, unknown>;

/** What a sandbox holds after an import, by source_id: the attributes without gallery ids, and each gallery's bytes in order. */
interface Holding {
  attributes: Record<string, Attributes>;
  galleries: Record<string, string[]>;
  files: Record<string, string[]>;
}

function holding(sandbox: RunningSandbox, sourceIds: string[], field: string): Holding {
  const result: Holding = { attributes: {}, galleries: {}, files: {} };
  for (const sourceId of sourceIds) {
    const spot = sandbox.spotBySourceId(sourceId);
    assert.ok(spot, `${sourceId} is on the service`);
    const { [field]: galleryId, ...attributes } = spot.attributes;
    result.attributes[sourceId] = attributes;
    const media = galleryId === undefined ? [] : sandbox.gallery(galleryId as number)!.mediaIds.map((id) => sandbox.media(id)!);
    result.galleries[sourceId] = media.map((item) => readFileSync(item.path, 'utf8'));
    result.files[sourceId] = media.map((item) => item.file);
  }
  return result;
}

/** Every file under a folder, relative, sorted. */
function listing(folder: string, prefix = ''): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? listing(join(folder, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]))
    .sort();
}

describe('spot-import rows: convert', function () {
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

  it('writes DIR/<source_id made file-safe>.spot.json with <name>.media/<field>/NN-<file> beside; import DIR puts the same spots on the service as import of the table', async () => {
    const convert = await runCli(['convert', 'survey.csv', '--out', 'spots'], { cwd: project.dir });
    assert.equal(convert.code, 1, 'the invalid rows are reported and not written');
    assert.match(convert.stderr, /^3 spot documents written to spots; 9 rows not \(see above\)\. Import them with: spot-import import spots$/m);
    const validate = await runCli(['validate', 'survey.csv'], { cwd: project.dir });
    assert.equal(convert.stdout, validate.stdout, 'the rows not written are reported as validate reports them');

    // "kobo:uuid-1": the colon is no character of a portable file name.
    assert.deepEqual(listing(project.path('spots')), [
      'kobo_uuid-1.media/fld_7_3/01-b.jpg',
      'kobo_uuid-1.media/fld_7_3/02-a.jpg',
      'kobo_uuid-1.spot.json',
      'kobo_uuid-2.media/fld_7_3/01-c.jpg',
      'kobo_uuid-2.spot.json',
      'kobo_uuid-3.spot.json',
    ]);
    for (const [sourceId, attributes] of Object.entries(KOBO_SPOTS)) {
      const document = JSON.parse(readFileSync(project.path(`spots/${sourceId.replace(':', '_')}.spot.json`), 'utf8'));
      const gallery = KOBO_PHOTOS[sourceId].length > 0 ? { fld_7_3: null } : {};
      assert.deepEqual(document, { data: { type: 'spots', attributes: { ...attributes, ...gallery } } }, sourceId);
    }
    assert.equal(readFileSync(project.path('spots/kobo_uuid-1.media/fld_7_3/01-b.jpg'), 'utf8'), PHOTOS['b.jpg']);

    // The table, imported on one sandbox; the converted documents on a fresh one.
    const sourceIds = Object.keys(KOBO_SPOTS);
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
    const fromTable = await runCli(['import', 'survey.csv'], { cwd: project.dir, env: sandboxEnv(sandbox.baseUrl) });
    assert.equal(fromTable.code, 1, fromTable.stderr);
    const viaTable = holding(sandbox, sourceIds, 'fld_7_3');
    assert.equal(sandbox.spotCount(), 3);
    await sandbox.close();
    rmSync(project.path('.spot-import'), { recursive: true, force: true });

    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
    const fromDocuments = await runCli(['import', 'spots'], { cwd: project.dir, env: sandboxEnv(sandbox.baseUrl) });
    assert.equal(fromDocuments.code, 0, fromDocuments.stderr);
    const viaDocuments = holding(sandbox, sourceIds, 'fld_7_3');
    assert.equal(sandbox.spotCount(), 3);

    assert.deepEqual(viaDocuments.attributes, viaTable.attributes, 'the same spots, the same attribute values');
    assert.deepEqual(viaDocuments.galleries, viaTable.galleries, 'the same photos in the same order');
    assert.deepEqual(viaDocuments.galleries['kobo:uuid-1'], [PHOTOS['b.jpg'], PHOTOS['a.jpg']]);
    assert.deepEqual(viaTable.files['kobo:uuid-1'], ['b.jpg', 'a.jpg']);
    assert.deepEqual(viaDocuments.files['kobo:uuid-1'], ['01-b.jpg', '02-a.jpg'], "the documents' photos carry their order in their names");
  });

  it('says nothing of importing when no document was written', async () => {
    project.write('leer.csv', 'id,lat,lon\n1,999,15.4\n');
    project.write('leer.mapping.json', JSON.stringify({ topic_id: 12, source_id: 'leer-{id}', latitude: 'lat', longitude: 'lon' }));
    const result = await runCli(['convert', 'leer.csv', '--out', 'leer'], { cwd: project.dir });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stderr, /^0 spot documents written to leer; 1 row not \(see above\)\.$/m);
    assert.doesNotMatch(result.stderr, /Import them with/);
  });

  it('a document already there with other content is left as it is, and says so, unless --force', async () => {
    const first = await runCli(['convert', 'baeume.csv', '--out', 'kataster'], { cwd: project.dir });
    assert.equal(first.code, 1, 'rows 3 and 4 are invalid');
    const path = project.path('kataster/kataster-18.spot.json');
    const converted = readFileSync(path, 'utf8');
    assert.deepEqual(JSON.parse(converted).data.attributes, BAEUME_SPOTS['kataster-18']);
    // As an import that wrote the gallery id and state back would leave it.
    const edited = converted.replace('"topic_id": 12,', '"topic_id": 12,\n      "state": 1,');
    assert.notEqual(edited, converted);
    writeFileSync(path, edited);

    const second = await runCli(['convert', 'baeume.csv', '--out', 'kataster'], { cwd: project.dir });
    assert.equal(second.code, 1);
    assert.equal(readFileSync(path, 'utf8'), edited, 'left as it is');
    // Row 2 starts on line 3; it also has a warning (its local time is in the repeated hour).
    assert.match(
      second.stdout,
      /^baeume\.csv:3: kataster-18\.spot\.json exists with other content \(an import may have written gallery ids into it\): left as it is \(--force writes over it\)\.$/m,
    );
    assert.match(second.stdout, /^baeume\.csv:3:\d+: warning: Beobachtet am \(fld_12_5\): 2026-10-25 02:30 happened twice/m);
    assert.match(second.stderr, /^1 spot document written to kataster; 3 rows not \(see above\)\./m);

    const forced = await runCli(['convert', 'baeume.csv', '--out', 'kataster', '--force'], { cwd: project.dir });
    assert.equal(forced.code, 1, 'rows 3 and 4 are still invalid');
    assert.equal(readFileSync(path, 'utf8'), converted, '--force writes over it');
    assert.ok(existsSync(project.path('kataster/kataster-17.media/fld_12_3/01-eiche-1.jpg')));
  });
});

describe('spot-import rows: mapping', function () {
  this.timeout(60_000);
  let project: Project;
  before(() => ensureCliBuilt());
  beforeEach(() => (project = rowsProject()));
  afterEach(() => project.cleanup());

  it("guesses a German spreadsheet's mapping (encoding, delimiter, decimal comma, coordinates, topic fields by label, dates' pattern, photos) and what it writes validates the table", async () => {
    // The spreadsheet's first two rows, written fresh: nothing beside it yet.
    writeFileSync(project.path('neu.csv'), windows1252(BAEUME_TEXT.split('\r\n').slice(0, 3).join('\r\n') + '\r\n'));
    const result = await runCli(['mapping', 'neu.csv'], { cwd: project.dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'neu.mapping.json\n');
    assert.deepEqual(JSON.parse(readFileSync(project.path('neu.mapping.json'), 'utf8')), {
      source: { format: 'csv', delimiter: ';', decimalSeparator: ',', encoding: 'windows-1252' },
      // The topic whose labels are the headers.
      topic_id: 12,
      // No column is named like an id: the first one, said so.
      source_id: 'neu-{Nr}',
      latitude: 'Breite',
      longitude: 'Länge',
      fields: {
        fld_12_1: 'Baumart',
        fld_12_2: 'Höhe (m)',
        fld_12_4: 'Bemerkung',
        fld_12_5: { column: 'Beobachtet am', format: 'd.M.yyyy H:mm' },
        fld_12_6: { column: 'Gepflanzt am', format: 'd.M.yyyy' },
      },
      // Spelt as German folders are, capitalised.
      media: { fld_12_3: { columns: ['Foto'], folder: 'Fotos' } },
    });
    assert.match(result.stderr, /source_id: neu-\{Nr\}, from the first column: name a column that identifies each row for good/);
    assert.match(result.stderr, /add "timezone" \(and "inputTimezone"\) if its times are not UTC/);

    const validate = await runCli(['validate', 'neu.csv'], { cwd: project.dir });
    assert.equal(validate.code, 0, validate.stdout + validate.stderr);
    assert.equal(validate.stdout, '');
    assert.match(validate.stderr, /^2 rows of neu\.csv checked: all valid\.$/m);
  });

  it("guesses a KoBoToolbox export's (_uuid, _location_latitude/_longitude, photo columns, byte-order mark, labels ending group paths) and refuses to write over a mapping without --force", async () => {
    const mine = readFileSync(project.path('survey.mapping.json'), 'utf8');
    const refused = await runCli(['mapping', 'survey.csv'], { cwd: project.dir });
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /^spot-import: survey\.mapping\.json exists already: it was left as it is \(--force writes over it, --out names another file\)\.$/m,
    );
    assert.equal(readFileSync(project.path('survey.mapping.json'), 'utf8'), mine, 'left as it was');

    const forced = await runCli(['mapping', 'survey.csv', '--force'], { cwd: project.dir });
    assert.equal(forced.code, 0, forced.stderr);
    const guessed = JSON.parse(readFileSync(project.path('survey.mapping.json'), 'utf8'));
    assert.deepEqual(guessed.source, { format: 'csv', delimiter: ';', decimalSeparator: ',', encoding: 'utf-8' });
    // _uuid is empty in one of the rows looked at (row 10): never proposed then (issue 32); a KoBo export's prefix, not the file's name.
    assert.equal(guessed.source_id, 'kobo-{_id}');
    assert.deepEqual([guessed.latitude, guessed.longitude], ['_location_latitude', '_location_longitude']);
    const media = Object.values(guessed.media as Record<string, { columns: string[]; folder?: string }>);
    assert.deepEqual(media, [{ columns: ['photo_1', 'photo_2'], folder: 'photos' }]);
    // Topic 7's labels Species and Notes end the group paths group_obs/species and group_obs/notes
    // (its Height (m) is no "height"): the fields the hand-written survey.mapping.json names for them.
    assert.equal(guessed.topic_id, 7);
    // Its date-time field spotted_at, which no column is headed with: the time the form was opened.
    assert.deepEqual(guessed.fields, { fld_7_1: 'group_obs/species', fld_7_4: 'group_obs/notes', spotted_at: 'start' });
    assert.match(forced.stderr, /fields: fld_7_1 \(Species\) from the column group_obs\/species/);
    assert.match(forced.stderr, /fields: spotted_at is the time KoBoToolbox recorded the observation: check that it is the time your field means/);
  });
});
