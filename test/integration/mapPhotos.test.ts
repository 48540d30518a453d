// A folder of geotagged photos in the editor (issue 35): Create Mapping on the folder writes
// photos.mapping.json beside it (and refuses a folder whose photos have no position); Show on Map
// of the folder places each photo where its GPS tags say, before anything is imported, names the
// photo without a position, and a marker opens its photo. The photos are written byte by byte
// (test/unit/helpers/exifJpeg.ts), the places expected worked out from what was written.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { MapPanel } from '../../src/extension/map';
import { decimalDegrees, exifJpeg, type ExifPhoto } from '../unit/helpers/exifJpeg';
import { closeAllEditors, fixtureUri, readLogText, waitFor } from './helpers/testEnv';

const GRAZ: ExifPhoto = {
  gps: { latitudeRef: 'N', latitude: [47, 4, [1644, 100]], longitudeRef: 'E', longitude: [15, 26, [2220, 100]] },
  taken: '2026:03:27 14:30:05',
  offset: '+01:00',
};
const LIMA: ExifPhoto = {
  byteOrder: 'MM',
  gps: { latitudeRef: 'S', latitude: [12, 2, [3600, 100]], longitudeRef: 'W', longitude: [77, 1, [4800, 100]] },
  taken: '2026:01:05 08:00:00',
};
const NO_GPS: ExifPhoto = { taken: '2026:03:27 15:00:00' };

const degrees = (parts: Parameters<typeof decimalDegrees>[0], ref: string) => Math.round(decimalDegrees(parts, ref) * 1e7) / 1e7;

describe('A folder of geotagged photos: Create Mapping and Show on Map', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-photos-'));
    fs.mkdirSync(path.join(dir, 'photos'));
    fs.writeFileSync(path.join(dir, 'photos', 'IMG_0001.jpg'), exifJpeg(GRAZ));
    fs.writeFileSync(path.join(dir, 'photos', 'IMG_0002.jpg'), exifJpeg(LIMA));
    fs.writeFileSync(path.join(dir, 'photos', 'IMG_0003.jpg'), exifJpeg(NO_GPS));
    fs.mkdirSync(path.join(dir, 'dark'));
    fs.writeFileSync(path.join(dir, 'dark', 'IMG_0001.jpg'), exifJpeg(NO_GPS));
  });
  after(async () => {
    await closeAllEditors();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Create Mapping on the folder writes photos.mapping.json beside it, reading the photos', async () => {
    const folder = vscode.Uri.file(path.join(dir, 'photos'));
    const written = (await vscode.commands.executeCommand('spotImport.rows.createMapping', folder)) as vscode.Uri;
    assert.strictEqual(written?.fsPath, path.join(dir, 'photos.mapping.json'));
    const mapping = JSON.parse(fs.readFileSync(written.fsPath, 'utf8')) as { source?: { format?: string }; latitude?: unknown; topic_id?: number };
    assert.deepStrictEqual(mapping.source, { format: 'photos' });
    // The workspace's topic with a gallery and a time (spot-topics/7.topic.json: its Species is required).
    assert.strictEqual(mapping.topic_id, 7);
    assert.strictEqual(mapping.latitude, undefined, "the place is each photo's own");
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, written.fsPath, 'the mapping is open to complete');
  });

  it('Create Mapping refuses a folder none of whose photos has a position, and writes nothing', async () => {
    const folder = vscode.Uri.file(path.join(dir, 'dark'));
    assert.strictEqual(await vscode.commands.executeCommand('spotImport.rows.createMapping', folder), undefined);
    await waitFor('the reason in the log', async () => /none of its first 1 photos has a GPS position/.test(await readLogText()));
    assert.strictEqual(fs.existsSync(path.join(dir, 'dark.mapping.json')), false);
  });

  it('Show on Map of the folder places each photo by its GPS tags, names the one without, and a marker opens its photo', async () => {
    await closeAllEditors();
    const panel = (await vscode.commands.executeCommand('spotImport.map.show', vscode.Uri.file(path.join(dir, 'photos')))) as MapPanel;
    assert.ok(panel?.lastState, 'the command hands back the panel');
    assert.deepStrictEqual(
      panel.shown().map((m) => [path.basename(vscode.Uri.parse(m.id).fsPath), m.latitude, m.longitude]),
      [
        ['IMG_0001.jpg', degrees(GRAZ.gps!.latitude, 'N'), degrees(GRAZ.gps!.longitude, 'E')],
        ['IMG_0002.jpg', degrees(LIMA.gps!.latitude, 'S'), degrees(LIMA.gps!.longitude, 'W')],
      ],
    );
    // The proposed mapping's topic has a required field no photo fills: each row is judged as its import would judge it.
    assert.deepStrictEqual(
      panel.shown().map((m) => m.state),
      ['invalid', 'invalid'],
    );
    assert.strictEqual(panel.lastState.skipped.length, 1);
    assert.match(panel.lastState.skipped[0].name, /photos\/IMG_0003\.jpg$/);
    assert.match(panel.lastState.skipped[0].reason, /no GPS position/);
    const photo = panel.shown()[0].id;
    await panel.openMarker(photo);
    await waitFor('the photo open beside the map', () =>
      vscode.window.tabGroups.all.some(
        (group) =>
          group.viewColumn !== panel.panel.viewColumn && group.tabs.some((tab) => (tab.input as { uri?: vscode.Uri } | undefined)?.uri?.toString() === photo),
      ),
    );
    assert.strictEqual(panel.panel.visible, true, 'the map is still shown');
    panel.panel.dispose();
  });
});
