// Rows of a table as spots in the editor (issue 21), in the extension host against the sandbox: a
// semicolon CSV with a byte-order mark, decimal commas, category labels, local times and photos
// named in a cell, with its mapping beside it and the workspace's topic 7 (spot-topics/). Problems
// on the right cells, hovers that say what a cell becomes, Preview Spots, the CodeLens, Import Rows
// as Spots (the rest imported with their photos in order, a failure opening the table at its cell,
// a second run sending nothing), the mapping checked as it is typed, Create Mapping for this File.
// Everything is generated into a folder of the test workspace (the topic definitions apply there).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { RowsImportSummary } from '../../src/extension/tables/commands/importRows';
import { installScriptedUi } from './helpers/scriptedUi';
import { closeAllEditors, counters, fixtureUri, readLogText, spotDiagnostics, useTestProfile, waitFor } from './helpers/testEnv';

/** A PNG with bytes after its end marker, so every photo has its own content. */
function png(seed: string): Buffer {
  return Buffer.concat([fs.readFileSync(fixtureUri('upload', 'trail-marker.png').fsPath), Buffer.from(seed)]);
}

interface Table {
  dir: string;
  csv: vscode.Uri;
  mapping: vscode.Uri;
  stamp: string;
  /** Where each line's cells start (0-based character), by line (0-based). */
  cellStarts(line: number): number[];
}

/**
 * trees.csv (UTF-8 with BOM, ';', decimal commas) and trees.mapping.json in a new folder of the
 * workspace; photos/ holds the photos of row 1. Rows: 1 good with two photos, 2 good, 3 latitude
 * and longitude swapped, 4 a local time in the daylight-saving gap (Vienna, 29 March 2026 02:30)
 * and a photo that is not there.
 */
function writeTable(): Table {
  const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-rows-'));
  const stamp = `it-rows-${Date.now().toString(36)}`;
  const lines = [
    'id;Species;Height (m);lat;lon;observed;photos',
    `${stamp}-1;Oak;12,5;47,0712;15,4395;27.03.2026 14:30;"oak-1.png;oak-2.png"`,
    `${stamp}-2;Beech;8;47,08;15,45;28.03.2026 09:00;`,
    `${stamp}-3;Larch;3,5;139,69;35,68;28.03.2026 10:00;`,
    `${stamp}-4;Oak;4;47,1;15,5;29.03.2026 02:30;missing.png`,
  ];
  const csv = path.join(dir, 'trees.csv');
  fs.writeFileSync(csv, '\uFEFF' + lines.join('\r\n') + '\r\n');
  fs.mkdirSync(path.join(dir, 'photos'));
  fs.writeFileSync(path.join(dir, 'photos', 'oak-1.png'), png(`${stamp}-oak-1`));
  fs.writeFileSync(path.join(dir, 'photos', 'oak-2.png'), png(`${stamp}-oak-2`));
  const mapping = {
    topic_id: 7,
    source_id: '{id}',
    latitude: 'lat',
    longitude: 'lon',
    fields: { spotted_at: { column: 'observed', format: 'dd.MM.yyyy HH:mm', timezone: 'Europe/Vienna' } },
    media: { fld_7_3: { columns: ['photos'], folder: 'photos' } },
  };
  const mappingPath = path.join(dir, 'trees.mapping.json');
  fs.writeFileSync(mappingPath, JSON.stringify(mapping, null, 2) + '\n');
  const cellStarts = (line: number) => {
    const starts = [0];
    const text = lines[line];
    let quoted = false;
    for (let index = 0; index < text.length; index++) {
      if (text[index] === '"') quoted = !quoted;
      else if (text[index] === ';' && !quoted) starts.push(index + 1);
    }
    return starts;
  };
  return { dir, csv: vscode.Uri.file(csv), mapping: vscode.Uri.file(mappingPath), stamp, cellStarts };
}

/** The table's problems once there are `count` (a timeout says which there were, and the log's table lines). */
async function waitForTableChecked(table: Table, count: number): Promise<vscode.Diagnostic[]> {
  try {
    return await waitFor(
      `${count} problems on ${path.basename(table.csv.fsPath)}`,
      () => {
        const found = spotDiagnostics(table.csv);
        return found.length === count ? found : undefined;
      },
      20_000,
    );
  } catch (error) {
    const found = spotDiagnostics(table.csv).map((diagnostic) => `${diagnostic.range.start.line}:${diagnostic.range.start.character} ${diagnostic.message}`);
    const log = (await readLogText()).split('\n').filter((line) => /tables|rows/.test(line));
    throw new Error(`${(error as Error).message}; found ${JSON.stringify(found)}; log: ${log.slice(-5).join(' / ')}`);
  }
}

describe('rows of a table as spots in the editor', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  let restore: (() => void) | undefined;
  afterEach(async () => {
    restore?.();
    restore = undefined;
    await closeAllEditors();
  });
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shows each row problem on its cell, in the Problems panel, with the command line's messages", async () => {
    await useTestProfile();
    const table = writeTable();
    dirs.push(table.dir);
    await vscode.window.showTextDocument(table.csv);
    const problems = await waitForTableChecked(table, 3);
    const at = (line: number, cell: number) =>
      problems.filter((problem) => problem.range.start.line === line && problem.range.start.character === table.cellStarts(line)[cell]);

    const swapped = at(3, 3);
    assert.strictEqual(swapped.length, 1, `a problem on row 3's latitude cell: ${JSON.stringify(problems.map((p) => [p.range.start, p.message]))}`);
    assert.match(swapped[0].message, /swapped/i);
    assert.strictEqual(swapped[0].severity, vscode.DiagnosticSeverity.Error);
    // The rule spot documents have for it: the quick fix below goes by it.
    assert.strictEqual(swapped[0].code, 'spot.swappedCoordinates');
    assert.match(at(4, 5)[0]?.message ?? '', /does not exist|daylight/i, 'the local time in the gap, on its cell');
    assert.match(at(4, 6)[0]?.message ?? '', /missing\.png.*not in the folder/, 'the missing photo, on its cell');
    // The range covers the cell's text (here "139,69").
    assert.strictEqual(vscode.window.activeTextEditor?.document.getText(swapped[0].range), '139,69');
  });

  it("offers to swap the mapping's latitude and longitude columns on a swapped row, preferred when every row looks swapped; applied, the rows are right", async () => {
    await useTestProfile();
    const swapActions = async (uri: vscode.Uri, range: vscode.Range) => {
      const actions = await vscode.commands.executeCommand<Array<vscode.CodeAction | vscode.Command>>('vscode.executeCodeActionProvider', uri, range);
      return actions.filter((action): action is vscode.CodeAction => 'edit' in action && action.title.startsWith('Swap the latitude and longitude columns'));
    };
    // One row of four typed the wrong way round: offered, not preferred (the edit would spoil the other three).
    const table = writeTable();
    dirs.push(table.dir);
    await vscode.window.showTextDocument(table.csv);
    const problems = await waitForTableChecked(table, 3);
    const one = problems.find((problem) => problem.code === 'spot.swappedCoordinates');
    assert.ok(one, JSON.stringify(problems.map((problem) => [problem.code, problem.message])));
    const offered = await swapActions(table.csv, one.range);
    assert.deepEqual(
      offered.map((action) => [action.title, action.isPreferred]),
      [['Swap the latitude and longitude columns in trees.mapping.json (1 of 4 rows look swapped)', false]],
    );
    await closeAllEditors();

    // Every row swapped (the mapping names the columns crosswise, degrees with their letters): two
    // problems a row, 2,200 in all, past the 2,000 shown; preferred, and applying it puts them right.
    const crosswise = writeTable();
    dirs.push(crosswise.dir);
    const numbers = Array.from({ length: 1100 }, (_, index) => index + 1);
    const rows = ['id;Species;Height (m);lat;lon;observed;photos', ...numbers.map((n) => `${crosswise.stamp}-${n};Oak;4;15°26'E;47°04'N;27.03.2026 14:30;`)];
    fs.writeFileSync(crosswise.csv.fsPath, rows.join('\r\n') + '\r\n');
    await vscode.window.showTextDocument(crosswise.csv);
    const all = await waitForTableChecked(crosswise, 2000);
    assert.ok(
      all.every((problem) => problem.code === 'spot.swappedCoordinates'),
      JSON.stringify(all.map((problem) => [problem.code, problem.message])),
    );
    const [swap] = await swapActions(crosswise.csv, all[1].range);
    assert.strictEqual(swap?.title, 'Swap the latitude and longitude columns in trees.mapping.json (1100 of 1100 rows look swapped)');
    assert.strictEqual(swap.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(swap.edit!));
    const mapping = JSON.parse((await vscode.workspace.openTextDocument(crosswise.mapping)).getText()) as { latitude: string; longitude: string };
    assert.deepEqual([mapping.latitude, mapping.longitude], ['lon', 'lat']);
    await waitForTableChecked(crosswise, 0);
    await closeAllEditors();

    // One column holding the place, written longitude first (Sydney's 151.2 E, 33.9 S): the fix
    // says the order the column is read in, and writes it.
    const lonFirst = writeTable();
    dirs.push(lonFirst.dir);
    fs.writeFileSync(lonFirst.mapping.fsPath, JSON.stringify({ topic_id: 7, source_id: '{id}', position: 'place' }, null, 2) + '\n');
    const places = ['id;Species;place', ...[1, 2, 3].map((n) => `${lonFirst.stamp}-p${n};Oak;151,20${n} -33,86${n}`)];
    fs.writeFileSync(lonFirst.csv.fsPath, places.join('\r\n') + '\r\n');
    await vscode.window.showTextDocument(lonFirst.csv);
    const reversed = await waitForTableChecked(lonFirst, 3);
    assert.ok(
      reversed.every((problem) => problem.code === 'spot.swappedCoordinates'),
      JSON.stringify(reversed.map((problem) => [problem.code, problem.message])),
    );
    const orderActions = (
      await vscode.commands.executeCommand<Array<vscode.CodeAction | vscode.Command>>('vscode.executeCodeActionProvider', lonFirst.csv, reversed[0].range)
    ).filter((action): action is vscode.CodeAction => 'edit' in action && action.title.startsWith('Read the position column'));
    assert.deepEqual(
      orderActions.map((action) => [action.title, action.isPreferred]),
      [['Read the position column place longitude first in trees.mapping.json (3 of 3 rows look swapped)', true]],
    );
    assert.ok(await vscode.workspace.applyEdit(orderActions[0].edit!));
    const ordered = JSON.parse((await vscode.workspace.openTextDocument(lonFirst.mapping)).getText()) as { position: unknown };
    assert.deepEqual(ordered.position, { column: 'place', order: 'longitude-latitude' });
    await waitForTableChecked(lonFirst, 0);
    await closeAllEditors();

    // Degrees in range both ways round (15/47 for 47/15): only the topic's area shows them swapped.
    const area = fixtureUri('spot-topics', '14.topic.json');
    fs.writeFileSync(area.fsPath, JSON.stringify({ topic_id: 14, name: 'Styria', area: { bbox: [13.5, 46.6, 16.2, 47.9] }, fields: {} }));
    try {
      const inRange = writeTable();
      dirs.push(inRange.dir);
      fs.writeFileSync(inRange.mapping.fsPath, JSON.stringify({ topic_id: 14, source_id: '{id}', latitude: 'lat', longitude: 'lon' }));
      const lines = ['id;lat;lon', ...[1, 2, 3].map((n) => `${inRange.stamp}-${n};15,4${n};47,0${n}`)];
      fs.writeFileSync(inRange.csv.fsPath, lines.join('\r\n') + '\r\n');
      await vscode.window.showTextDocument(inRange.csv);
      const warnings = await waitForTableChecked(inRange, 3);
      assert.ok(
        warnings.every((problem) => problem.code === 'topic.outsideArea' && /probably swapped/.test(problem.message)),
        JSON.stringify(warnings.map((problem) => [problem.code, problem.message])),
      );
      const [inside] = await swapActions(inRange.csv, warnings[0].range);
      assert.strictEqual(inside?.title, 'Swap the latitude and longitude columns in trees.mapping.json (3 of 3 rows look swapped)');
      assert.strictEqual(inside.isPreferred, true);
    } finally {
      fs.rmSync(area.fsPath, { force: true });
    }
  });

  it('says in a hover what a cell becomes, and Preview Spots shows the exact document of the row', async () => {
    await useTestProfile();
    const table = writeTable();
    dirs.push(table.dir);
    const editor = await vscode.window.showTextDocument(table.csv);
    await waitForTableChecked(table, 3);

    const hoverAt = async (line: number, cell: number) => {
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        table.csv,
        new vscode.Position(line, table.cellStarts(line)[cell] + 1),
      );
      return hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
    };
    const species = await hoverAt(1, 1);
    assert.match(species, /`fld_7_1` \(Species\) = `1`/, `the label's key is sent: ${species}`);
    assert.match(await hoverAt(1, 2), /`fld_7_2` \(Height \(m\)\) = `12\.5`/, 'the decimal comma read');
    assert.match(await hoverAt(1, 5), /`spotted_at` \(Observed at\) = `"2026-03-27 14:30:00"`/);
    assert.match(await hoverAt(1, 6), /oak-1\.png.*oak-2\.png/, 'the photos, in order');

    editor.selection = new vscode.Selection(1, 3, 1, 3);
    const preview = await vscode.commands.executeCommand<vscode.TextEditor>('spotImport.rows.preview');
    assert.strictEqual(preview.document.uri.scheme, 'spot-preview');
    // Named by the table's path in the workspace and the row; JSON, without the *.spot.json schema's warnings.
    assert.match(preview.document.uri.path, /\/\.it-rows-[^/]+\/trees\.csv row 1 \(spot\)\.json$/);
    assert.strictEqual(preview.document.languageId, 'json');
    const document = JSON.parse(preview.document.getText()) as { data: { type: string; attributes: Record<string, unknown> } };
    assert.deepStrictEqual(document.data.attributes, {
      topic_id: 7,
      source_id: `${table.stamp}-1`,
      latitude: 47.0712,
      longitude: 15.4395,
      fld_7_1: 1,
      fld_7_2: 12.5,
      spotted_at: '2026-03-27 14:30:00',
      fld_7_3: null,
    });
    // Read-only: a virtual document no save can write anywhere.
    assert.strictEqual(preview.document.isUntitled, false);
    assert.notStrictEqual(preview.document.uri.scheme, 'file');
  });

  it('counts the rows in its CodeLens, imports the rest with their photos in order, opens a failure at its cell, and a second run sends nothing', async () => {
    const { sandbox } = await useTestProfile();
    const table = writeTable();
    dirs.push(table.dir);
    await vscode.window.showTextDocument(table.csv);
    await waitForTableChecked(table, 3);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', table.csv);
    assert.ok(
      lenses.some((lens) => lens.command?.title.includes('Import 2 rows as spots (2 with problems are left out)')),
      lenses.map((lens) => lens.command?.title).join(' | '),
    );

    const before = counters(sandbox);
    const [imports, uploads] = [before.imports, before.uploads];
    const run = await installScriptedUi([
      { kind: 'quickPick', match: /^Imported 2 of 4 rows to Integration sandbox \(2 media uploaded, 0 already there\); 2 failed$/, pick: /row 3/ },
    ]);
    restore = run.restore;
    const summary = await vscode.commands.executeCommand<RowsImportSummary>('spotImport.rows.import', table.csv);
    run.done();
    assert.deepStrictEqual(
      summary.imported.map((entry) => entry.sourceId),
      [`${table.stamp}-1`, `${table.stamp}-2`],
    );
    assert.deepStrictEqual(
      summary.failed.map((failure) => failure.file),
      ['trees.csv row 3 (line 4)', 'trees.csv row 4 (line 5)'],
    );
    assert.match(summary.failed[0].reason, /swapped/i);
    // The pick opened the table at row 3's latitude cell.
    const opened = vscode.window.activeTextEditor;
    assert.strictEqual(opened?.document.uri.fsPath, table.csv.fsPath);
    assert.deepStrictEqual([opened.selection.active.line, opened.selection.active.character], [3, table.cellStarts(3)[3]]);

    const spot = sandbox.spotBySourceId(`${table.stamp}-1`);
    assert.ok(spot, 'row 1 is a spot');
    assert.strictEqual(spot.attributes.state, 1, 'made active once its photos were in');
    const gallery = sandbox.gallery(Number(spot.attributes.fld_7_3));
    assert.deepStrictEqual(
      gallery?.mediaIds.map((id) => sandbox.media(id)?.file),
      ['oak-1.png', 'oak-2.png'],
      'the photos, once each, in cell order',
    );
    assert.strictEqual(sandbox.spotBySourceId(`${table.stamp}-3`), undefined, 'the swapped row was not sent');
    assert.strictEqual(counters(sandbox).uploads - uploads, 2);

    const importsAfterFirst = counters(sandbox).imports;
    const again = await installScriptedUi([
      { kind: 'quickPick', match: /^Imported 2 of 4 rows to Integration sandbox \(0 media uploaded, 2 already there\); 2 failed$/, pick: undefined },
    ]);
    restore = again.restore;
    await vscode.commands.executeCommand<RowsImportSummary>('spotImport.rows.import', table.csv);
    again.done();
    assert.ok(importsAfterFirst > imports, 'the first run imported');
    assert.strictEqual(counters(sandbox).imports, importsAfterFirst, 'the second run sent no import');
    assert.strictEqual(counters(sandbox).uploads - uploads, 2, 'no photo sent again');
  });

  it('checks the mapping as it is typed, and refuses to import while it has an error', async () => {
    const { sandbox } = await useTestProfile();
    const table = writeTable();
    dirs.push(table.dir);
    await vscode.window.showTextDocument(table.csv);
    await waitForTableChecked(table, 3);
    const mapping = await vscode.window.showTextDocument(table.mapping);
    const text = mapping.document.getText();
    const offset = text.indexOf('"lat"') + 1;
    await mapping.edit((edit) => edit.insert(mapping.document.positionAt(offset + 3), 't'));
    const problem = await waitFor(
      'a problem on the mapping',
      () => spotDiagnostics(table.mapping).find((diagnostic) => /no column "latt"/.test(diagnostic.message)),
      10_000,
    );
    assert.match(problem.message, /did you mean "lat"\?/);
    assert.strictEqual(mapping.document.getText(problem.range), '"latt"');

    const before = counters(sandbox).imports;
    const run = await installScriptedUi([
      { kind: 'warning', match: /trees\.mapping\.json has unsaved changes/, button: 'Save and Import' },
      { kind: 'error', match: /^Not imported, nothing was sent: the mapping .*trees\.mapping\.json has 1 problem: trees\.csv has no column "latt"/ },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.rows.import', table.csv);
    run.done();
    assert.strictEqual(counters(sandbox).imports, before, 'nothing was sent');
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, table.mapping.fsPath, 'the mapping is open at its problem');
  });

  it('makes a mapping for a table that has none, from its header and first rows', async () => {
    await useTestProfile();
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-rows-guess-'));
    dirs.push(dir);
    const csv = path.join(dir, 'survey.csv');
    fs.writeFileSync(csv, '_uuid,_location_latitude,_location_longitude,Species\nu-1,47.07,15.44,Oak\nu-2,47.08,15.45,Beech\n');
    await vscode.window.showTextDocument(vscode.Uri.file(csv));
    const lenses = await waitFor('the Create Mapping CodeLens', async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', vscode.Uri.file(csv));
      return found.some((lens) => lens.command?.title.includes('Create Mapping for this File')) ? found : undefined;
    });
    assert.ok(lenses.length > 0);
    const run = await installScriptedUi([
      { kind: 'info', match: /^Made .*survey\.mapping\.json from the header and first rows of .*survey\.csv\. Check what was guessed: .*_location_latitude/ },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.rows.createMapping', vscode.Uri.file(csv));
    run.done();
    const made = JSON.parse(fs.readFileSync(path.join(dir, 'survey.mapping.json'), 'utf8')) as Record<string, unknown>;
    assert.strictEqual(made.latitude, '_location_latitude');
    assert.strictEqual(made.longitude, '_location_longitude');
    assert.strictEqual(made.topic_id, 7, 'the topic whose labels match a column');
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, path.join(dir, 'survey.mapping.json'));
  });
  it('takes a GeoJSON layer saved as .json for the table it is: its CodeLens and Create Mapping; a spot document .json stays one', async () => {
    await useTestProfile();
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-rows-json-'));
    dirs.push(dir);
    const layer = path.join(dir, 'trees.json');
    const oak = { type: 'Feature', id: 'a', properties: { Species: 'Oak' }, geometry: { type: 'Point', coordinates: [15.4395, 47.0707] } };
    fs.writeFileSync(layer, JSON.stringify({ type: 'FeatureCollection', features: [oak] }, null, 2) + '\n');
    await vscode.window.showTextDocument(vscode.Uri.file(layer));
    await waitFor('the Create Mapping CodeLens on the .json layer', async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', vscode.Uri.file(layer));
      return found.some((lens) => lens.command?.title.includes('Create Mapping for this File')) ? found : undefined;
    });
    const run = await installScriptedUi([{ kind: 'info', match: /^Made .*trees\.mapping\.json from the header and first rows of .*trees\.json\./ }]);
    restore = run.restore;
    // From the palette: the command acts on the active editor's .json.
    await vscode.commands.executeCommand('spotImport.rows.createMapping');
    run.done();
    const made = JSON.parse(fs.readFileSync(path.join(dir, 'trees.mapping.json'), 'utf8')) as Record<string, unknown>;
    assert.deepStrictEqual(made.source, { format: 'geojson', encoding: 'utf-8' });
    assert.strictEqual(made.source_id, 'trees-{$id}');
    // A spot document named .json gets no table's CodeLens.
    const document = path.join(dir, 'oak.json');
    fs.writeFileSync(document, JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 7, source_id: 'oak' } } }, null, 2) + '\n');
    await vscode.window.showTextDocument(vscode.Uri.file(document));
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', vscode.Uri.file(document));
    assert.ok(!lenses.some((lens) => lens.command?.title.includes('Create Mapping for this File')), lenses.map((lens) => lens.command?.title).join(', '));
  });

  it('says what a file of a format that is not read is, and what to do, instead of making a mapping', async () => {
    await useTestProfile();
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-rows-kml-'));
    dirs.push(dir);
    const kml = path.join(dir, 'places.kml');
    fs.writeFileSync(kml, '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>\n');
    const kobo = path.join(dir, 'kobo.json');
    fs.writeFileSync(kobo, '{"count": 1, "next": null, "previous": null, "results": [{"_id": 1}]}\n');
    const run = await installScriptedUi([
      {
        kind: 'error',
        match:
          /^.*places\.kml cannot be read as a table: it is a KML file \(Google Earth, My Maps\), a format that is not read: export the layer as GeoJSON or CSV \(in QGIS: Export > Save Features As…\)$/,
      },
      {
        kind: 'error',
        match:
          /^.*kobo\.json cannot be read as a table: it is a reply of KoBoToolbox's API \(JSON\), a format that is not read: download the export as XLSX or CSV/,
      },
    ]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.rows.createMapping', vscode.Uri.file(kml));
    await vscode.commands.executeCommand('spotImport.rows.import', vscode.Uri.file(kobo));
    run.done();
    assert.deepStrictEqual(fs.readdirSync(dir).sort(), ['kobo.json', 'places.kml'], 'no mapping was made');
  });
});
