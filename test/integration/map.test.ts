// The map (issue 23) in the extension host: Show on Map on a folder and on a document gives the
// panel the markers of its spot documents (states, field labels, the line of latitude); an edit
// of a document's coordinates moves its marker; Pick Location writes latitude and longitude as
// one undoable edit that keeps the document's formatting; a marker opens its document beside the map. What the page draws is the e2e test's.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { guessSpotFiles } from '../../src/extension/documents/findSpotFiles';
import { documentSource, type MarkerSource } from '../../src/extension/map/collectMarkers';
import { MapPanel } from '../../src/extension/map/mapPanel';
import type { ShownMarker } from '../../src/extension/map/pageProtocol';
import { extensionServices } from './helpers/scriptedUi';
import { closeAllEditors, fixtureUri, readLogText, waitFor } from './helpers/testEnv';

const spot = (sourceId: string, latitude: number | string, longitude: number, extra = '') =>
  `{\n    "data": {\n        "type": "spots",\n        "attributes": {\n            "topic_id": 1,\n            "source_id": "${sourceId}",\n            "latitude": ${latitude},\n            "longitude": ${longitude}${extra}\n        }\n    }\n}\n`;

function writeFolder(): { dir: string; uri(name: string): vscode.Uri } {
  const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-map-'));
  fs.writeFileSync(path.join(dir, 'a.spot.json'), spot('it-map-a', 48.2, 16.37));
  fs.writeFileSync(path.join(dir, 'b.spot.json'), spot('it-map-b', 47.07, 15.44, ',\n            "state": 2,\n            "fld_1_10": null'));
  fs.writeFileSync(path.join(dir, 'c.spot.json'), spot('it-map-c', '"north"', 15));
  fs.writeFileSync(path.join(dir, 'notes.json'), '{"not": "a spot"}');
  return { dir, uri: (name) => vscode.Uri.file(path.join(dir, name)) };
}

describe('Map: Show on Map and Pick Location', function () {
  this.timeout(60_000);
  let folder: ReturnType<typeof writeFolder>;

  before(() => (folder = writeFolder()));
  after(async () => {
    await closeAllEditors();
    fs.rmSync(folder.dir, { recursive: true, force: true });
  });

  it('Show on Map of a folder shows each spot document with coordinates, and says which have none', async () => {
    const panel = (await vscode.commands.executeCommand('spotImport.map.show', vscode.Uri.file(folder.dir))) as MapPanel;
    assert.ok(panel?.lastState, 'the command hands back the panel with the state it sent');
    const markers = panel.shown().sort((a, b) => a.sourceId.localeCompare(b.sourceId));
    assert.deepStrictEqual(
      markers.map((m) => [m.sourceId, m.latitude, m.longitude, m.state, m.line]),
      [
        ['it-map-a', 48.2, 16.37, 'notImported', 6],
        ['it-map-b', 47.07, 15.44, 'inProgress', 6],
      ],
    );
    assert.strictEqual(markers[0].name, 'it-map-a: Not yet imported, topic 1, 48.2, 16.37');
    assert.deepStrictEqual(
      panel.lastState.skipped.map((s) => [path.basename(s.name), s.reason]),
      [['c.spot.json', 'no numeric latitude and longitude']],
    );
    assert.strictEqual(panel.lastState.mode, 'show');
    assert.strictEqual(panel.lastState.tiles, undefined, 'no tiles unless the user chose them');
    assert.strictEqual(panel.lastState.offerTiles, true);
    assert.strictEqual(panel.lastState.canSwap, true, 'Swap is offered for spot documents');
    // Its page: the policy allows no image host but the extension's and data:.
    assert.match(panel.panel.webview.html, /default-src 'none'; img-src [^;]* data:; style-src/);
    panel.panel.dispose();
  });

  it("a folder's map opened again shows what the folder holds now: what its last search found is read at once, what is gone is dropped, what is new is added", async () => {
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-map-again-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.spot.json'), spot('it-again-a', 48.2, 16.37));
      fs.writeFileSync(path.join(dir, 'b.spot.json'), spot('it-again-b', 47.07, 15.44));
      fs.writeFileSync(path.join(dir, 'c.spot.json'), spot('it-again-c', '"north"', 15));
      const first = (await vscode.commands.executeCommand('spotImport.map.show', vscode.Uri.file(dir))) as MapPanel;
      assert.deepStrictEqual(
        first
          .shown()
          .map((m) => m.sourceId)
          .sort(),
        ['it-again-a', 'it-again-b'],
      );
      first.panel.dispose();
      // What the second map's reading of the remembered documents meets: one gone, one new, one changed.
      fs.rmSync(path.join(dir, 'a.spot.json'));
      fs.writeFileSync(path.join(dir, 'd.spot.json'), spot('it-again-d', 46.6, 14.3));
      fs.writeFileSync(path.join(dir, 'b.spot.json'), spot('it-again-b', 47.5, 15.44));
      const again = (await vscode.commands.executeCommand('spotImport.map.show', vscode.Uri.file(dir))) as MapPanel;
      assert.deepStrictEqual(
        again
          .shown()
          .map((m) => [m.sourceId, m.latitude])
          .sort(),
        [
          ['it-again-b', 47.5],
          ['it-again-d', 46.6],
        ],
      );
      assert.deepStrictEqual(
        again.lastState?.skipped.map((s) => path.basename(s.name)),
        ['c.spot.json'],
        'the document that is gone is not listed as unreadable',
      );
      assert.deepStrictEqual(again.lastState?.reading, undefined, 'reading ended with the second search');
      again.panel.dispose();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("draws what a folder's last search found as soon as it is read, before the search again ends, leaving out what is gone", async () => {
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-map-shown-'));
    try {
      for (const name of ['a', 'b', 'c']) fs.writeFileSync(path.join(dir, `${name}.spot.json`), spot(`it-shown-${name}`, 47, 15));
      const uri = (name: string) => vscode.Uri.file(path.join(dir, `${name}.spot.json`));
      // The services reading needs: no profile, no galleries, no topic definitions.
      const services = {
        profiles: { active: () => undefined },
        galleries: { list: () => [] },
        checker: { topicsFor: () => Promise.resolve(undefined) },
      } as unknown as Parameters<typeof documentSource>[0];
      let finish: (found: vscode.Uri[]) => void = () => undefined;
      let searched = false;
      const source = documentSource(services, {
        likely: async () => [uri('a'), uri('b'), uri('gone')],
        find: () => {
          searched = true;
          return new Promise((resolve) => (finish = resolve));
        },
      });
      const batches: Array<{ ids: string[]; skipped: number; shown: boolean }> = [];
      let drawn: unknown;
      let handedOver: () => void = () => undefined;
      const collecting = source.collect((sofar, _total, shown) => {
        batches.push({ ids: sofar.markers.map((m) => path.basename(vscode.Uri.parse(m.id).fsPath)).sort(), skipped: sofar.skipped.length, shown: !!shown });
        if (!shown) return;
        drawn = sofar;
        // The page has the whole only when this resolves: the search waits for it.
        return new Promise<void>((resolve) => (handedOver = resolve));
      });
      await waitFor('the remembered documents drawn as the whole while the search goes on', () => batches.some((batch) => batch.shown), 10_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.strictEqual(searched, false, 'the search waits until the whole was handed to the page');
      handedOver();
      await waitFor('the search begun once the whole was handed over', () => searched, 10_000);
      assert.deepStrictEqual(
        batches.at(-1),
        { ids: ['a.spot.json', 'b.spot.json'], skipped: 0, shown: true },
        'the file that is gone is not listed as unreadable',
      );
      finish([uri('a'), uri('b')]);
      assert.strictEqual(await collecting, drawn, 'the search found the same: the whole drawn is the result');

      // A file gone while the remembered ones were read, and back before the search ends: read as new.
      let release: (found: vscode.Uri[]) => void = () => undefined;
      const back = documentSource(services, { likely: async () => [uri('a'), uri('back')], find: () => new Promise((resolve) => (release = resolve)) });
      let complete = false;
      const reading = back.collect((_sofar, _total, whole) => {
        complete ||= !!whole;
      });
      await waitFor('the remembered documents drawn', () => complete, 10_000);
      fs.writeFileSync(path.join(dir, 'back.spot.json'), spot('it-shown-back', 47, 15));
      release([uri('a'), uri('back')]);
      assert.deepStrictEqual(
        (await reading).markers.map((m) => path.basename(vscode.Uri.parse(m.id).fsPath)).sort(),
        ['a.spot.json', 'back.spot.json'],
        'the file that came back is read',
      );

      const again = documentSource(services, { likely: async () => [uri('a'), uri('b')], find: () => Promise.resolve([uri('a'), uri('c')]) });
      const result = await again.collect();
      assert.deepStrictEqual(
        result.markers.map((m) => path.basename(vscode.Uri.parse(m.id).fsPath)).sort(),
        ['a.spot.json', 'c.spot.json'],
        'what the search no longer finds is dropped, what it found anew is read',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("guesses a folder's documents on a first map by a walk that follows files.exclude's names, and leaves other patterns to the search", async () => {
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-map-guess-'));
    const files = vscode.workspace.getConfiguration('files');
    const before = files.inspect<Record<string, unknown>>('exclude')?.workspaceValue;
    try {
      for (const name of ['a.spot.json', 'sub/b.spot.json', 'skipme/c.spot.json', 'node_modules/d.spot.json', '.dot/e.spot.json', 'f.json']) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), spot(`it-guess-${name}`, 47, 15));
      }
      const guessed = async () => (await guessSpotFiles(vscode.Uri.file(dir)))?.map((uri) => path.relative(dir, uri.fsPath).split(path.sep).join('/'));
      assert.deepStrictEqual(await guessed(), ['a.spot.json', 'skipme/c.spot.json', 'sub/b.spot.json'], 'by name; f.json is for the search to read');
      await files.update('exclude', { '**/skip*': true, '**/.git': true, '**/off/**': false }, vscode.ConfigurationTarget.Workspace);
      assert.deepStrictEqual(await guessed(), ['a.spot.json', 'sub/b.spot.json'], 'a name excluded is passed over; a pattern switched off is no matter');
      const shownIn = async (target: string) => {
        const panel = (await vscode.commands.executeCommand('spotImport.map.show', vscode.Uri.file(target))) as MapPanel;
        const shown = panel
          .shown()
          .map((m) => m.sourceId)
          .sort();
        panel.panel.dispose();
        return shown;
      };
      // The guess drawn first (a and b), then the search adds f.json, a spot document by its content.
      assert.deepStrictEqual(await shownIn(dir), ['it-guess-a.spot.json', 'it-guess-f.json', 'it-guess-sub/b.spot.json']);
      await files.update('exclude', { '**/skipme': true, 'sub/**': true }, vscode.ConfigurationTarget.Workspace);
      assert.strictEqual(await guessed(), undefined, 'a pattern other than a name: no guess, the search alone');

      // Opened again here: what the last search found is the guess now; the search drops sub/b.
      assert.deepStrictEqual(
        await shownIn(dir),
        ['it-guess-a.spot.json', 'it-guess-f.json'],
        "the map shows what the search found, files.exclude's patterns followed",
      );
      // A first map with no guess (a copy of the folder): the search alone.
      const copy = `${dir}-copy`;
      fs.cpSync(dir, copy, { recursive: true });
      try {
        assert.deepStrictEqual(await shownIn(copy), ['it-guess-a.spot.json', 'it-guess-f.json']);
      } finally {
        fs.rmSync(copy, { recursive: true, force: true });
      }
    } finally {
      await files.update('exclude', before, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a document edited while the search runs, and not found by it, leaves the map', async () => {
    const dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-map-edited-'));
    const uri = (name: string) => vscode.Uri.file(path.join(dir, `${name}.spot.json`));
    for (const name of ['a', 'b']) fs.writeFileSync(uri(name).fsPath, spot(`it-edited-${name}`, 47, 15));
    const marker = (name: string, latitude: number): ShownMarker => ({
      id: uri(name).toString(),
      latitude,
      longitude: 15,
      state: 'notImported',
      sourceId: `it-edited-${name}`,
      topic: '',
      fields: [],
      line: 6,
      name: `it-edited-${name}`,
      letter: 'N',
      stateLabel: 'Not yet imported',
    });
    // Drawn as likely (a and b), then the search finds a only: b was edited meanwhile.
    let watched = [uri('a'), uri('b')];
    let searchEnds: () => void = () => undefined;
    let searching = false;
    const source: MarkerSource = {
      get watched() {
        return watched;
      },
      collect: async (onBatch) => {
        await onBatch?.({ markers: [marker('a', 47), marker('b', 47)], skipped: [] }, 2, true);
        searching = true;
        await new Promise<void>((resolve) => (searchEnds = resolve));
        watched = [uri('a')];
        return { markers: [marker('a', 47)], skipped: [] };
      },
      one: (edited) => Promise.resolve(marker(path.basename(edited.fsPath, '.spot.json'), 48)),
    };
    const services = await extensionServices();
    const panel = new MapPanel(services, 'it-map-edited', 'Map: edited', 'show', source, () => undefined);
    try {
      const loading = panel.load();
      await waitFor('the search under way', () => searching, 20_000);
      const editor = await vscode.window.showTextDocument(uri('b'));
      await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), ' '));
      await waitFor("the edit moved b's marker", () => panel.shown().some((shown) => shown.sourceId === 'it-edited-b' && shown.latitude === 48), 10_000);
      searchEnds();
      await loading;
      assert.deepStrictEqual(
        panel.shown().map((shown) => shown.sourceId),
        ['it-edited-a'],
        'what the search did not find is not kept because it was edited',
      );
      assert.deepStrictEqual(
        panel.lastState?.markers.map((shown) => shown.name),
        ['it-edited-a: Not yet imported, 47, 15'],
        'nor sent to the page',
      );
    } finally {
      panel.panel.dispose();
      await closeAllEditors();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Show on Map of a Galleries view spot row maps the document its import recorded, and says when none is known', async () => {
    const uri = folder.uri('a.spot.json');
    // A spot row (src/extension/galleries/nodes/spotNode.ts): its gallery rows know the import's document.
    const row = {
      spot: { spotId: 1, sourceId: 'it-map-a' },
      galleries: [{ known: { galleryId: 9, pending: false, spot: { spotId: 1, sourceId: 'it-map-a', documentUri: uri.toString() } } }],
    };
    const panel = (await vscode.commands.executeCommand('spotImport.map.show', row)) as MapPanel;
    assert.deepStrictEqual(
      panel.shown().map((m) => m.id),
      [uri.toString()],
    );
    panel.panel.dispose();
    const older = { spot: { spotId: 2, sourceId: 'x' }, galleries: [{ known: { galleryId: 8, pending: false, spot: { spotId: 2, sourceId: 'x' } } }] };
    // The command wrapper shows the error (and logs it) instead of throwing.
    assert.strictEqual(await vscode.commands.executeCommand('spotImport.map.show', older), undefined);
    await waitFor('the reason in the log', async () => /document this spot was imported from is not known/.test(await readLogText()));
  });

  it('offers Show on Map as a CodeLens of a spot document', async () => {
    const uri = folder.uri('a.spot.json');
    await vscode.workspace.openTextDocument(uri);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
    const map = lenses.filter((lens) => lens.command?.command === 'spotImport.map.show');
    assert.strictEqual(map.length, 1);
    assert.match(map[0].command!.title, /Show on Map/);
    assert.strictEqual((map[0].command!.arguments?.[0] as vscode.Uri).toString(), uri.toString());
  });

  it('follows an edit of a document: changing its latitude moves its marker', async () => {
    const uri = folder.uri('a.spot.json');
    const panel = (await vscode.commands.executeCommand('spotImport.map.show', uri)) as MapPanel;
    assert.deepStrictEqual(
      panel.shown().map((m) => m.latitude),
      [48.2],
    );
    const document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    const at = document.getText().indexOf('48.2');
    edit.replace(uri, new vscode.Range(document.positionAt(at), document.positionAt(at + 4)), '45.5');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor('the marker moved', () => panel.shown()[0]?.latitude === 45.5);
    await panel.settled();
    assert.strictEqual(panel.lastState?.markers[0].latitude, 45.5);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    panel.panel.dispose();
  });

  it('a marker opens its document beside the map: the map stays in view, the document is at its latitude', async () => {
    await closeAllEditors();
    const uri = folder.uri('a.spot.json');
    const panel = (await vscode.commands.executeCommand('spotImport.map.show', vscode.Uri.file(folder.dir))) as MapPanel;
    const column = panel.panel.viewColumn;
    await panel.openMarker(uri.toString());
    const editor = await waitFor('the document open', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString()));
    assert.notStrictEqual(editor.viewColumn, column, "not in the map's editor group");
    assert.strictEqual(panel.panel.visible, true, 'the map is still shown');
    assert.strictEqual(panel.panel.viewColumn, column, 'the map did not move');
    assert.strictEqual(editor.selection.active.line, 6, "the cursor on latitude's line");
    panel.panel.dispose();
    await closeAllEditors();
  });

  it('closing the map while its documents are read ends the command, and reads no more', async () => {
    await closeAllEditors();
    const big = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-map-big-'));
    try {
      for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(big, `s-${i}.spot.json`), spot(`it-map-big-${i}`, 47 + (i % 100) / 100, 15));
      const command = vscode.commands.executeCommand('spotImport.map.show', vscode.Uri.file(big));
      // As soon as its tab is there, before its page has said it is ready.
      const tab = await waitFor('the map tab', () =>
        vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((each) => each.label.startsWith('Map: .it-map-big-')),
      );
      await vscode.window.tabGroups.close(tab);
      const ended = await Promise.race([command.then(() => 'ended'), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 10_000))]);
      assert.strictEqual(ended, 'ended', 'the command did not wait for a page that will never come');
    } finally {
      fs.rmSync(big, { recursive: true, force: true });
    }
  });

  it('Pick Location writes latitude and longitude rounded to 6 decimals as one undo step, formatting kept', async () => {
    const uri = folder.uri('b.spot.json');
    const editor = await vscode.window.showTextDocument(uri);
    const original = editor.document.getText();
    const panel = (await vscode.commands.executeCommand('spotImport.map.pickLocation', uri)) as MapPanel;
    assert.strictEqual(panel.lastState?.mode, 'pick');
    const written = await panel.pick(40.41670471234, -3.70358254321);
    assert.deepStrictEqual(written, { latitude: 40.416705, longitude: -3.703583 });
    assert.strictEqual(editor.document.getText(), original.replace('47.07', '40.416705').replace('15.44', '-3.703583'), 'only the two numbers changed');
    await waitFor('the marker followed', () => panel.shown()[0]?.latitude === 40.416705);
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), original, 'one undo restores the document');
    panel.panel.dispose();
  });

  it('Show on Map of a CSV table with its mapping shows its rows as the import would send them, each opening the table at its latitude cell', async () => {
    const csv = path.join(folder.dir, 'trees.csv');
    fs.writeFileSync(csv, 'id;lat;lon\r\nit-map-row-1;47,0712;15,4395\r\nit-map-row-2;48,2;16,37\r\nit-map-row-3;north;16\r\n');
    fs.writeFileSync(
      path.join(folder.dir, 'trees.mapping.json'),
      JSON.stringify({ topic_id: 1, source_id: '{id}', latitude: 'lat', longitude: 'lon' }, null, 2),
    );
    const panel = (await vscode.commands.executeCommand('spotImport.map.show', vscode.Uri.file(csv))) as MapPanel;
    assert.deepStrictEqual(
      panel.shown().map((m) => [m.sourceId, m.latitude, m.longitude, m.state, m.line, path.basename(vscode.Uri.parse(m.open ?? '').fsPath)]),
      [
        ['it-map-row-1', 47.0712, 15.4395, 'notImported', 1, 'trees.csv'],
        ['it-map-row-2', 48.2, 16.37, 'notImported', 2, 'trees.csv'],
      ],
    );
    assert.deepStrictEqual(
      panel.lastState?.skipped.map((s) => s.name.replace(/^.*\//, '')),
      ['trees.csv line 4'],
    );
    assert.strictEqual(panel.lastState?.canSwap, false, "a table's rows are put right in the table or its mapping, not swapped from the map");
    panel.panel.dispose();
  });
});
