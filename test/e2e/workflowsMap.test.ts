// E2E: the map (issue 23), with the packaged extension. The examples' spot documents (examples/spots,
// copied into the workspace as map-examples/) on the built-in outline, without any network:
//   1. Show on Map from the Explorer context menu of the folder: four markers (two in Vienna
//      grouped), the fifth document (latitude 123.4) listed as not on the map; a click on the
//      Graz marker opens river-bank.spot.json at its latitude.
//   2. Pick Location on Map on a copy of bench-mark.spot.json: arrow keys and Enter write a new
//      latitude and longitude into the document, and the map's list follows the edit.
//   3. Tiles: none are loaded until spotImport.map.tiles names a server; then tiles come from it,
//      here a sandbox started by this test on loopback (its generated /__sandbox/tiles), with
//      the attribution on the map.
//   4. An accessibility audit (axe-core) of the map page: markers, groups, controls and the list.
// Screenshots: artifacts/e2e/map-*.png.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from '../integration/launchers/harness/paths';
import { startSandbox } from '../../src/sandbox';
import { audit, serious } from './audit';
import { closeAllEditors, imagesLoaded, webviewFrame } from './galleryHelpers';
import {
  activeEditorTab,
  clearNotifications,
  contextMenuAction,
  dismissOverlays,
  openFile,
  openViewContainer,
  page,
  runCommandByKeyboard,
  settledShot,
  shot,
  workspaceDir,
} from './workbench';
import { explorerRow, plainTitle, title } from './workflowHelpers';

const FOLDER = 'map-examples';

function copyExamples(): void {
  const target = path.join(workspaceDir(), FOLDER);
  if (!fs.existsSync(target)) fs.cpSync(path.join(repoRoot, 'examples', 'spots'), target, { recursive: true });
}

/** Pick Location on Map of a copy of bench-mark.spot.json (at 46.6247, 14.3053) under another source_id: its map, once it shows the spot. */
async function pickOnCopyOfBenchMark(name: string, sourceId: string) {
  await dismissOverlays();
  await closeAllEditors();
  fs.writeFileSync(
    path.join(workspaceDir(), FOLDER, name),
    fs.readFileSync(path.join(repoRoot, 'examples', 'spots', 'bench-mark.spot.json'), 'utf8').replace('example-bench-0003', sourceId),
  );
  await openFile(`${FOLDER}/${name}`);
  await runCommandByKeyboard(title('spotImport.map.pickLocation'));
  const frame = await webviewFrame('body.picking #map path.outline', undefined, 30_000);
  await frame.waitForFunction(() => document.body.dataset.markers === '1' && document.body.dataset.zoom !== undefined, undefined, { timeout: 20_000 });
  return frame;
}

describe('e2e map (Show on Map, Pick Location)', function () {
  this.timeout(150_000);

  before(() => copyExamples());

  after(async () => {
    await dismissOverlays().catch(() => undefined);
    await closeAllEditors().catch(() => undefined);
  });

  it('shows the examples folder on the outline, as markers and as a list, and a click on a marker opens its document', async () => {
    await clearNotifications();
    // The tests before this file leave another view in the side bar (the Galleries view).
    await openViewContainer('Explorer');
    await contextMenuAction(explorerRow(FOLDER), plainTitle('spotImport.map.show'));
    const frame = await webviewFrame('#map path.outline', undefined, 30_000);
    await frame.waitForFunction(() => document.body.dataset.markers === '4', undefined, { timeout: 20_000 });
    await clearNotifications(); // a toast that came meanwhile (git) would cover the map in the pictures
    // Vienna's two spots (250 m apart) are one group at the zoom that shows all four; Graz and Klagenfurt stand alone.
    const singles = await frame.locator('.spot-marker[data-spot]').evaluateAll((elements) => elements.map((e) => e.getAttribute('aria-label')));
    const groups = await frame.locator('.spot-cluster').evaluateAll((elements) => elements.map((e) => e.getAttribute('aria-label')));
    assert.deepStrictEqual(
      singles.sort(),
      ['example-bench-0003: Not yet imported, topic 1, 46.6247, 14.3053', 'example-river-0002: In progress, topic 1, 47.0707, 15.4395'].sort(),
      `named markers: ${singles.join(' | ')}`,
    );
    assert.deepStrictEqual(
      groups,
      ['Group of 2 spots (1 In progress, 1 Not yet imported); press Enter to zoom in'].map((label) => label),
      `groups: ${groups.join(' | ')}`,
    );
    // Every marker is a keyboard stop.
    assert.ok((await frame.locator('.spot-marker[data-spot][tabindex="0"]').count()) === 2);
    const list = await frame.locator('#list-items button.list-spot').allTextContents();
    assert.strictEqual(list.length, 4, `the four spots in view: ${list.join(' | ')}`);
    const skipped = await frame.locator('#list-items li.skipped').allTextContents();
    assert.strictEqual(skipped.length, 1, `one not on the map: ${skipped.join(' | ')}`);
    assert.match(
      skipped[0],
      /needs-fixing\.spot\.json: not on the map \(coordinates out of range \(123\.4, 16\.1\): latitude and longitude are probably swapped\)/,
    );
    assert.strictEqual(await frame.locator('#list-items li.skipped button.swap').count(), 1, 'the swap is offered beside it');
    assert.match((await frame.locator('#summary').textContent()) ?? '', /4 spots; 1 not on the map/);
    await settledShot('map-examples');

    // The hover names source_id, state and topic.
    const graz = frame.locator('.spot-marker[aria-label^="example-river-0002"]');
    await graz.hover();
    // Its fields come from the extension when the hover first opens: each with its value.
    const tooltip = frame.locator('.leaflet-tooltip', { hasText: 'example-river-0002 (In progress)' });
    await tooltip.waitFor({ state: 'visible', timeout: 5_000 });
    assert.match((await tooltip.textContent()) ?? '', /example-river-0002 \(In progress\)topic 1fld_1_10: —/);
    await shot('map-examples-hover'); // the mouse stays on the marker: the tooltip shows

    // Zoomed out, the markers (one group now) sit on the outline of Europe's coasts.
    // (a click during Leaflet's zoom animation is not taken: one step at a time)
    const zoom = async (control: string) => {
      for (let i = 0; i < 3; i++) {
        await frame.locator(control).click();
        await page().waitForTimeout(500);
      }
    };
    await zoom('.leaflet-control-zoom-out');
    await settledShot('map-examples-outline');
    const grouped = (await frame.locator('.spot-cluster').allTextContents()).map(Number);
    const single = await frame.locator('.spot-marker[data-spot]').count();
    assert.ok(grouped.length > 0, 'closer together now: grouped');
    assert.strictEqual(grouped.reduce((a, b) => a + b, 0) + single, 4, `every spot still on the map: groups ${grouped.join(', ')} and ${single} single`);
    await zoom('.leaflet-control-zoom-in');

    await graz.click();
    await activeEditorTab('river-bank.spot.json').waitFor({ state: 'visible', timeout: 20_000 });
    // Beside the map, which stays in view as it was.
    assert.ok(await frame.locator('#map').isVisible(), 'the map is still shown');
    assert.strictEqual(await page().locator('.part.editor .editor-group-container').count(), 2, 'the document opened in a second editor group');
    const cursor = page()
      .locator('.statusbar-item', { hasText: /Ln \d+, Col \d+/ })
      .first();
    await cursor.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match((await cursor.textContent()) ?? '', /Ln 7, Col 1/, 'the editor is at the latitude line');
    await settledShot('map-examples-opened');
  });

  it('Pick Location on Map writes the place chosen by keyboard into the document, and the map follows', async () => {
    const frame = await pickOnCopyOfBenchMark('picked.spot.json', 'example-picked-0005');
    const before = (await frame.locator('#list-items button.list-spot').first().textContent()) ?? '';
    assert.match(before, /46\.6247, 14\.3053/);
    // By keyboard: the arrow keys move the map north-west of the spot, Enter takes the centre.
    await frame.locator('#map').focus();
    for (const key of ['ArrowUp', 'ArrowUp', 'ArrowLeft', 'ArrowLeft']) {
      await page().keyboard.press(key);
      await page().waitForTimeout(300); // Leaflet's pan animation
    }
    await page().keyboard.press('Enter');
    await frame.waitForFunction((text) => document.querySelector('#list-items button.list-spot')?.textContent !== text, before, { timeout: 15_000 });
    const after = (await frame.locator('#list-items button.list-spot').first().textContent()) ?? '';
    const [, lat, lon] = /(-?\d+\.\d+), (-?\d+\.\d+)$/.exec(after) ?? [];
    assert.ok(Number(lat) > 46.6247 && Number(lon) < 14.3053, `moved north-west: ${after}`);
    assert.ok((lat.split('.')[1] ?? '').length <= 6 && (lon.split('.')[1] ?? '').length <= 6, `rounded to 6 decimals: ${after}`);
    await settledShot('map-pick-location');
  });

  it('Pick Location by keyboard: Enter without moving takes exactly the place under the mark', async () => {
    const frame = await pickOnCopyOfBenchMark('marked.spot.json', 'example-marked-0006');
    await page().waitForTimeout(500); // the hint line is shown and the map told of its new size
    // Where the mark is, and where the spot's own marker is (it stands at 46.6247, 14.3053), in the page's pixels.
    const box = async (selector: string) => {
      const rect = await frame.locator(selector).first().boundingBox();
      assert.ok(rect, selector);
      return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
    };
    const mark = await box('#map');
    const spot = await box('.spot-marker[data-spot]');
    const zoom = Number(await frame.evaluate(() => document.body.dataset.zoom));
    await frame.locator('#map').focus();
    await page().keyboard.press('Enter');
    // A pick of the map's old centre writes the spot's own place again: the list then does not
    // change, and the check below says how far from the mark that is.
    const before = '46.6247, 14.3053';
    await frame
      .waitForFunction((text) => !(document.querySelector('#list-items button.list-spot')?.textContent ?? '').includes(text), before, { timeout: 10_000 })
      .catch(() => undefined);
    const after = (await frame.locator('#list-items button.list-spot').first().textContent()) ?? '';
    const [, lat, lon] = /(-?\d+\.\d+), (-?\d+\.\d+)$/.exec(after) ?? [];
    // The place under the mark, worked out here with spherical Web Mercator from the spot's marker and the zoom.
    const world = 256 * 2 ** zoom;
    const project = (latitude: number, longitude: number) => ({
      x: ((longitude + 180) / 360) * world,
      y: (world / 2) * (1 - Math.atanh(Math.sin((latitude * Math.PI) / 180)) / Math.PI),
    });
    const at = project(46.6247, 14.3053);
    const x = at.x + (mark.x - spot.x);
    const y = at.y + (mark.y - spot.y);
    const expected = { latitude: (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / world))) * 180) / Math.PI, longitude: (x / world) * 360 - 180 };
    const written = project(Number(lat), Number(lon));
    const off = Math.hypot(written.x - x, written.y - y);
    assert.ok(
      off < 2,
      `the written place (${lat}, ${lon}) is ${off.toFixed(1)} px from the mark's (${expected.latitude.toFixed(6)}, ${expected.longitude.toFixed(6)}) at zoom ${zoom}`,
    );
    await settledShot('map-pick-under-mark');
  });

  it("loads no tiles until spotImport.map.tiles names a server, then tiles from exactly it (the sandbox's)", async () => {
    await dismissOverlays();
    await closeAllEditors();
    const sandbox = await startSandbox({ port: 0 });
    const settings = path.join(workspaceDir(), '.vscode', 'settings.json');
    try {
      await openViewContainer('Explorer');
      await contextMenuAction(explorerRow(FOLDER), plainTitle('spotImport.map.show'));
      let frame = await webviewFrame('#map path.outline', undefined, 30_000);
      // The examples, and the document the test before added.
      await frame.waitForFunction(() => Number(document.body.dataset.markers) >= 4, undefined, { timeout: 20_000 });
      assert.strictEqual(await frame.locator('img.leaflet-tile').count(), 0, 'no tiles without the setting');
      assert.ok(await frame.locator('#use-osm').isVisible(), 'the one-time offer of OpenStreetMap tiles is there');
      fs.mkdirSync(path.dirname(settings), { recursive: true });
      fs.writeFileSync(
        settings,
        JSON.stringify({ 'spotImport.map.tiles': { url: `${sandbox.baseUrl}/__sandbox/tiles/{z}/{x}/{y}.png`, attribution: 'Sandbox tiles (generated)' } }),
      );
      // A new tile host is a new page (its policy names that host).
      frame = await webviewFrame('#map img.leaflet-tile', undefined, 30_000);
      await imagesLoaded(frame, 'img.leaflet-tile', 4);
      const sources = await frame.locator('img.leaflet-tile').evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src));
      assert.ok(
        sources.every((src) => src.startsWith(`${sandbox.baseUrl}/__sandbox/tiles/`)),
        sources.join(' '),
      );
      assert.match((await frame.locator('.leaflet-control-attribution').textContent()) ?? '', /Sandbox tiles \(generated\)/);
      assert.ok(!(await frame.locator('#use-osm').isVisible()), 'no offer once tiles are set');
      await settledShot('map-sandbox-tiles');
    } finally {
      try {
        // An empty settings file rather than none: deleting it makes VS Code restart its file watchers
        // about 30 s later, and a later test that creates files then waits that long for the Explorer.
        if (fs.existsSync(settings)) fs.writeFileSync(settings, '{}');
      } finally {
        await sandbox.close();
      }
    }
  });

  it("draws a spot outside its topic's area apart (its badge and words), lists it under its problem, and offers Swap for swapped numbers", async () => {
    await dismissOverlays();
    await closeAllEditors();
    // Topic 77's area is Vienna: one spot inside, one with latitude and longitude swapped, one in Graz.
    const topic = path.join(workspaceDir(), 'spot-topics', '77.topic.json');
    const folder = path.join(workspaceDir(), 'map-misplaced');
    const spotAt = (sourceId: string, latitude: number, longitude: number) =>
      JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 77, source_id: sourceId, latitude, longitude } } }, null, 2);
    fs.mkdirSync(path.dirname(topic), { recursive: true });
    fs.writeFileSync(topic, JSON.stringify({ topic_id: 77, name: 'Vienna trees', area: { bbox: [16.18, 48.12, 16.58, 48.33] }, fields: {} }));
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'inside.spot.json'), spotAt('e2e-inside', 48.2082, 16.3738));
    fs.writeFileSync(path.join(folder, 'swapped.spot.json'), spotAt('e2e-swapped', 16.3738, 48.2082));
    fs.writeFileSync(path.join(folder, 'graz.spot.json'), spotAt('e2e-graz', 47.0707, 15.4395));
    try {
      await openViewContainer('Explorer');
      await contextMenuAction(explorerRow('map-misplaced'), plainTitle('spotImport.map.show'));
      const frame = await webviewFrame('#map path.outline', undefined, 30_000);
      await frame.waitForFunction(() => document.body.dataset.markers === '3' && document.body.dataset.reading === 'false', undefined, { timeout: 20_000 });
      // Topic 77 may reach the extension after the map read its documents: the open map redraws then.
      await frame.locator('.spot-marker.misplaced[data-spot]').waitFor({ timeout: 20_000 });
      const labelled = (selector: string) =>
        frame
          .locator(selector)
          .evaluateAll((elements) => elements.map((e) => [e.getAttribute('aria-label'), e.querySelector('.misplaced-badge')?.textContent]));
      // Fitted to all three: the swapped one stands alone; Vienna's and Graz's spots are one group, ringed for the misplaced one in it.
      assert.deepStrictEqual(await labelled('.spot-marker.misplaced[data-spot]'), [
        [
          "e2e-swapped: Not yet imported, topic 77 (Vienna trees), 16.3738, 48.2082, outside its topic's area: latitude and longitude are probably swapped",
          '?',
        ],
      ]);
      assert.strictEqual(await frame.locator('.spot-cluster.has-invalid').count(), 1, 'the group holding the Graz spot is ringed');
      assert.match((await frame.locator('#list-items').textContent()) ?? '', /Outside their topic's area \(2\)/);
      assert.strictEqual(await frame.locator('#list-items button.swap').count(), 1, 'Swap beside the swapped one only');
      assert.match((await frame.locator('#summary').textContent()) ?? '', /3 spots\. 2 outside their topic's area\./);
      await settledShot('map-misplaced');
      // Closer: a click on the group zooms to its spots, and the Graz spot stands alone, its badge readable.
      await frame.locator('.spot-cluster.has-invalid').click();
      await frame.locator('.spot-marker.misplaced[aria-label^="e2e-graz"] .misplaced-badge').waitFor({ state: 'visible', timeout: 10_000 });
      assert.deepStrictEqual(await labelled('.spot-marker.misplaced[aria-label^="e2e-graz"]'), [
        ["e2e-graz: Not yet imported, topic 77 (Vienna trees), 47.0707, 15.4395, outside its topic's area", '?'],
      ]);
      await settledShot('map-misplaced-marker');
    } finally {
      fs.rmSync(topic, { force: true });
      fs.rmSync(folder, { recursive: true, force: true });
    }
    // The Explorer drops the folder's row when its watcher reports the removal, which may be seconds
    // later: the next test's right-click must not land on rows that are still moving.
    await explorerRow('map-misplaced').waitFor({ state: 'detached', timeout: 20_000 });
  });

  it('keeps the keyboard in its list as Tab moves along it, and finds no serious violation in the map and its list (axe-core)', async () => {
    await dismissOverlays();
    await closeAllEditors();
    await openViewContainer('Explorer');
    await contextMenuAction(explorerRow(FOLDER), plainTitle('spotImport.map.show'));
    const frame = await webviewFrame('#map path.outline', undefined, 30_000);
    await frame.waitForFunction(() => Number(document.body.dataset.markers) >= 4, undefined, { timeout: 20_000 });
    // Tab moves along the list: focusing an entry pans the map to it and the list is drawn anew, and the keyboard stays in it.
    await frame.evaluate(() => document.querySelector<HTMLElement>('#list-items button.list-spot')?.focus());
    await page().keyboard.press('Tab');
    await page().waitForTimeout(400); // the pan and the list drawn after it
    assert.ok(
      await frame.evaluate(() => document.activeElement?.closest('#list-items button.list-spot') !== null),
      `the keyboard stays in the list (it is on ${await frame.evaluate(() => document.activeElement?.tagName)})`,
    );
    const violations = serious(await audit(frame, 'body'));
    await settledShot('map-audit');
    assert.deepStrictEqual(violations, [], 'no serious or critical violation in the map');
  });
});
