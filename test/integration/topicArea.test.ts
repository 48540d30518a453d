// Misplaced spots in a real extension host: a topic definition with an area (written into the
// fixture workspace's spot-topics/ for the test), a spot outside it warned on its latitude, the
// quick fix that swaps latitude and longitude when that brings the spot in (the rest of the text
// as it was), and, without an area, a latitude out of range that is probably swapped: an error
// with the same fix. Rows of a table of the topic get the area's warning at their latitude cell.
// On the map, such spots are drawn and listed apart, and Swap is offered there.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { MapPanel } from '../../src/extension/map';
import { closeAllEditors, fixtureUri, rangeOfText, revertAndCloseAll, spotDiagnostics, waitFor } from './helpers/testEnv';

const AREA_TOPIC = { topic_id: 14, name: 'Vienna trees', area: { bbox: [16.18, 48.11, 16.58, 48.33] }, fields: {} };

/** A spot document of topic 14 in an author's layout: one line for the pair, tabs, numbers as written. */
function spotText(latitude: string, longitude: string, topicId = 14): string {
  return `{\n\t"data": {\n\t\t"type": "spots",\n\t\t"attributes": {\n\t\t\t"topic_id": ${topicId}, "source_id": "it-area",\n\t\t\t"latitude": ${latitude}, "longitude": ${longitude},\n\t\t\t"state": 1\n\t\t}\n\t}\n}\n`;
}

async function quickFixes(document: vscode.TextDocument, range: vscode.Range): Promise<vscode.CodeAction[]> {
  return vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, range, vscode.CodeActionKind.QuickFix.value);
}

describe('topic areas in the editor', () => {
  const definition = () => fixtureUri('spot-topics', '14.topic.json');
  const written: vscode.Uri[] = [];

  async function openSpot(name: string, text: string): Promise<vscode.TextDocument> {
    const uri = fixtureUri('topics', name);
    fs.writeFileSync(uri.fsPath, text);
    written.push(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    return document;
  }

  before(() => fs.writeFileSync(definition().fsPath, JSON.stringify(AREA_TOPIC, null, 2)));
  afterEach(async () => {
    await revertAndCloseAll();
    for (const uri of written.splice(0)) fs.rmSync(uri.fsPath, { force: true });
  });
  after(() => fs.rmSync(definition().fsPath, { force: true }));

  it("warns on the latitude of a spot outside its topic's area, and swaps latitude and longitude when that brings it in", async () => {
    const document = await openSpot('area-swapped.spot.json', spotText('16.3700', '48.21'));
    // The definition written in before() reaches the extension through its file watcher: a check
    // that ran first used the catalog as it was (another suite's topic 14 of the same file, just
    // deleted), and the document is checked again when the catalog changes.
    const warning = await waitFor(
      "the area warning of this suite's topic 14",
      () => spotDiagnostics(document.uri).find((d) => d.code === 'topic.outsideArea' && d.message.includes('(Vienna trees)')),
      15_000,
    );
    assert.strictEqual(warning.severity, vscode.DiagnosticSeverity.Warning);
    assert.deepStrictEqual(warning.range, rangeOfText(document, '16.3700'));
    assert.match(
      warning.message,
      /^latitude 16\.37, longitude 48\.21 is outside the area of topic 14 \(Vienna trees\) .*; swapped, it is inside: latitude and longitude are probably swapped\.$/,
    );
    const actions = await quickFixes(document, warning.range);
    const swap = actions.find((action) => /^Swap latitude and longitude/.test(action.title));
    assert.ok(swap?.edit, `the swap among: ${actions.map((action) => action.title).join(' | ')}`);
    assert.strictEqual(swap.isPreferred, true);
    assert.ok(await vscode.workspace.applyEdit(swap.edit));
    assert.strictEqual(document.getText(), spotText('48.21', '16.3700'), 'only the two values changed places, as written');
    await waitFor('no problem left', () => spotDiagnostics(document.uri).length === 0, 15_000);
  });

  it('offers no swap for a spot outside that swapping does not bring in', async () => {
    const document = await openSpot('area-outside.spot.json', spotText('47.07', '15.44'));
    const warning = await waitFor('the area warning', () => spotDiagnostics(document.uri).find((d) => d.code === 'topic.outsideArea'), 15_000);
    assert.doesNotMatch(warning.message, /swapped/);
    const actions = await quickFixes(document, warning.range);
    assert.deepStrictEqual(
      actions.filter((action) => /Swap/.test(action.title)).map((action) => action.title),
      [],
    );
  });

  it('without an area: a latitude out of range that fits as a longitude is an error that says they are probably swapped, with the swap', async () => {
    const document = await openSpot('area-none.spot.json', spotText('123.5', '16.3738', 1));
    const error = await waitFor('the swapped-coordinates error', () => spotDiagnostics(document.uri).find((d) => d.code === 'spot.swappedCoordinates'), 15_000);
    assert.strictEqual(error.severity, vscode.DiagnosticSeverity.Error);
    assert.deepStrictEqual(error.range, rangeOfText(document, '123.5'));
    assert.strictEqual(error.message, 'latitude must be between -90 and 90; latitude and longitude are probably swapped.');
    const swap = (await quickFixes(document, error.range)).find((action) => /^Swap latitude and longitude/.test(action.title));
    assert.ok(swap?.edit);
    assert.ok(await vscode.workspace.applyEdit(swap.edit));
    assert.strictEqual(document.getText(), spotText('16.3738', '123.5', 1));
    await waitFor('no problem left', () => spotDiagnostics(document.uri).length === 0, 15_000);
  });

  it('warns at the latitude cell of a table row outside the area, like other row warnings', async () => {
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-area-rows-'));
    try {
      const csv = path.join(dir, 'trees.csv');
      fs.writeFileSync(csv, 'id,lat,lon\n1,48.2,16.37\n2,16.37,48.2\n');
      fs.writeFileSync(
        path.join(dir, 'trees.mapping.json'),
        JSON.stringify({ topic_id: 14, source_id: 'it-area-{id}', latitude: 'lat', longitude: 'lon', fields: {} }, null, 2),
      );
      const uri = vscode.Uri.file(csv);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const [warning, ...more] = await waitFor("the row's area warning", () => spotDiagnostics(uri).length > 0 && spotDiagnostics(uri), 20_000);
      assert.deepStrictEqual(more, []);
      assert.strictEqual(warning.code, 'topic.outsideArea');
      assert.strictEqual(warning.severity, vscode.DiagnosticSeverity.Warning);
      assert.deepStrictEqual([warning.range.start.line, warning.range.start.character, warning.range.end.character], [2, 2, 7]);
      assert.match(warning.message, /^latitude 16\.37, longitude 48\.2 is outside the area of topic 14 .*latitude and longitude are probably swapped\.$/);
    } finally {
      await closeAllEditors();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it('shows a misplaced spot as such on the map, names its problem, and swaps latitude and longitude from there (one undo step)', async () => {
    const swapped = await openSpot('area-map-swapped.spot.json', spotText('16.3700', '48.21'));
    await openSpot('area-map-outside.spot.json', spotText('47.07', '15.44'));
    await openSpot('area-map-inside.spot.json', spotText('48.21', '16.37'));
    await closeAllEditors();
    const panel = (await vscode.commands.executeCommand('spotImport.map.show', fixtureUri('topics'))) as MapPanel;
    const byName = (name: string) => panel.shown().find((marker) => marker.id.endsWith(name));
    assert.strictEqual(byName('area-map-swapped.spot.json')?.misplaced, 'swapped');
    assert.strictEqual(byName('area-map-outside.spot.json')?.misplaced, 'outside');
    assert.strictEqual(byName('area-map-inside.spot.json')?.misplaced, undefined);
    assert.match(byName('area-map-swapped.spot.json')!.name, /outside its topic's area: latitude and longitude are probably swapped$/);
    // The page is told, so it draws and lists them apart.
    const sent = panel.lastState?.markers
      .filter((marker) => marker.misplaced)
      .map((marker) => marker.misplaced)
      .sort();
    assert.deepStrictEqual(sent, ['outside', 'swapped']);

    await panel.swap(swapped.uri.toString());
    const document = await vscode.workspace.openTextDocument(swapped.uri);
    assert.strictEqual(document.getText(), spotText('48.21', '16.3700'), 'the two values exchanged as written, nothing else');
    await waitFor('the marker follows', () => byName('area-map-swapped.spot.json')?.misplaced === undefined && byName('area-map-swapped.spot.json'));
    // Swapping what would not come inside is refused, and nothing is written.
    const outside = fixtureUri('topics', 'area-map-outside.spot.json');
    await assert.rejects(panel.swap(outside.toString()), /would not put the spot in its place/);
    assert.strictEqual((await vscode.workspace.openTextDocument(outside)).getText(), spotText('47.07', '15.44'));
    panel.panel.dispose();
  });

  it("redraws an open map when a topic's definition changes: a spot becomes misplaced once its topic gets an area, and placed again when it goes", async () => {
    const folder = fixtureUri('topics', 'area-follow');
    const later = fixtureUri('spot-topics', '15.topic.json');
    fs.mkdirSync(folder.fsPath, { recursive: true });
    fs.writeFileSync(vscode.Uri.joinPath(folder, 'graz.spot.json').fsPath, spotText('47.07', '15.44', 15));
    try {
      const panel = (await vscode.commands.executeCommand('spotImport.map.show', folder)) as MapPanel;
      const graz = () => panel.shown().find((marker) => marker.id.endsWith('graz.spot.json'));
      assert.ok(graz(), 'drawn');
      assert.strictEqual(graz()?.misplaced, undefined, 'topic 15 has no definition yet');
      // A definition file written again as it was is read again, but changes nothing: the documents are not read again.
      let loads = 0;
      const load = panel.load.bind(panel);
      panel.load = () => {
        loads++;
        return load();
      };
      fs.writeFileSync(definition().fsPath, JSON.stringify(AREA_TOPIC, null, 2));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.strictEqual(loads, 0, 'the map read its documents again although no definition changed');
      fs.writeFileSync(later.fsPath, JSON.stringify({ ...AREA_TOPIC, topic_id: 15 }, null, 2));
      await waitFor(
        'the marker is drawn as outside its topic',
        () => graz()?.misplaced === 'outside' && panel.lastState?.markers.some((marker) => marker.misplaced === 'outside'),
      );
      assert.ok(loads >= 1, 'read again for the new definition');
      fs.rmSync(later.fsPath);
      await waitFor('the marker is drawn as placed again', () => graz() !== undefined && graz()?.misplaced === undefined);
      panel.panel.dispose();
    } finally {
      fs.rmSync(later.fsPath, { force: true });
      fs.rmSync(folder.fsPath, { recursive: true, force: true });
    }
  });
});
