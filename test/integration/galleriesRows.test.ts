// Gallery rows a new user can read (issue 11, "clearer rows"), inside a real extension host
// against the built-in sandbox: a short label (the field's label from a topic definition, else the
// field name) with what is true in the description; "waiting for media" (once "pending") only
// while the gallery has no media, and never beside the gallery's own state; the welcome text true
// where the extension runs; Upload to Spot Gallery… beside VS Code's own Download…/Upload….
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { PNG, fixtureFile, galleryRow, importSpot, rows, uniqueSourceId, useScriptedSandbox, waitFor, writeSpotDocument } from './galleriesSupport';

interface Contributions {
  viewsWelcome: Array<{ view: string; when: string; contents: string }>;
  menus: Record<string, Array<{ command: string; when?: string; group?: string }>>;
}

function contributions(): Contributions {
  const extension = vscode.extensions.getExtension('spot-tools.spot-import');
  assert.ok(extension);
  return extension.packageJSON.contributes as Contributions;
}

describe('Galleries view: rows', function () {
  this.timeout(60_000);
  const t = useScriptedSandbox();

  it("labels a gallery row with its field's label from the topic definition and keeps ids in the description", async () => {
    const sourceId = uniqueSourceId('label');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-label-'));
    const file = path.join(dir, `${sourceId}.spot.json`);
    // Topic 7 has a definition in the fixture workspace: fld_7_3 is its "Photos" gallery.
    fs.writeFileSync(
      file,
      JSON.stringify(
        { data: { type: 'spots', attributes: { topic_id: 7, source_id: sourceId, latitude: 47.07, longitude: 15.44, state: 2, fld_7_1: 1, fld_7_3: null } } },
        null,
        2,
      ),
    );
    const result = await importSpot(t.ui, vscode.Uri.file(file));
    const galleryId = result.pendingGalleries[0].galleryId;
    const row = await waitFor('the label from the topic definition', async () => {
      const found = await galleryRow(t.services, galleryId);
      return found.label === 'Photos' ? found : undefined;
    });
    assert.strictEqual(row.description, `waiting for media · gallery ${galleryId}`);
    assert.match((row.item.tooltip as vscode.MarkdownString).value, /\*\*Photos\*\* \(field `fld_7_3` of topic 7 \(Trail observations\)\)/);
    t.done();
  });

  it('drops "waiting for media" once the gallery has media, however they got there', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('waiting'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const profileId = t.services.profiles.active()!.id;
    assert.strictEqual((await galleryRow(t.services, galleryId)).contextValue, 'galleryPending');
    // Uploaded elsewhere (the command line, another window): no upload recorded here.
    const { client } = await t.services.clients.client();
    await client.uploadMedia(galleryId, fixtureFile(PNG).fsPath);
    t.services.galleriesView.refreshGallery(galleryId);
    await rows(t.services, (await galleryRow(t.services, galleryId)).node);
    const row = await waitFor('the row to show its media', async () => {
      const found = await galleryRow(t.services, galleryId);
      return found.contextValue === 'gallery' ? found : undefined;
    });
    assert.strictEqual(row.description, `1 media · gallery ${galleryId}`);
    assert.ok(!(row.item.tooltip as vscode.MarkdownString).value.includes('Waiting for media'));
    await waitFor('the store to know', () => t.services.galleries.list(profileId).find((known) => known.galleryId === galleryId)?.pending === false);
    t.done();
  });

  it('never shows "pending" beside the gallery\'s state: the description says what is true', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('state'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    await rows(t.services, (await galleryRow(t.services, galleryId)).node); // loaded: state and count known
    const row = await galleryRow(t.services, galleryId);
    assert.strictEqual(row.label, 'fld_37_12', 'the label is the field alone');
    assert.ok(!/pending|state/.test(row.description), `no "pending", no state in the description: ${row.description}`);
    assert.ok(row.description.startsWith('waiting for media'), row.description);
    t.done();
  });

  it("says where credentials are kept in the welcome text: the keychain on the desktop, the browser's storage in a browser", () => {
    const entries = contributions().viewsWelcome.filter((entry) => entry.view === 'spotImport.galleries' && entry.when.startsWith('!spotImport.hasProfile'));
    const desktop = entries.find((entry) => /(^|&& )!isWeb\b/.test(entry.when));
    const web = entries.find((entry) => /(^|&& )isWeb\b/.test(entry.when));
    assert.ok(desktop && web, `one welcome text for each: ${entries.map((entry) => entry.when).join(' | ')}`);
    assert.match(desktop.contents, /keychain/);
    assert.match(web.contents, /browser's storage/);
    assert.ok(!/stay in the OS keychain/.test(web.contents), 'the browser text does not promise a keychain');
  });

  it("puts Upload to Spot Gallery… beside VS Code's own Download… and Upload… in the Explorer menu, not last", () => {
    const entry = contributions().menus['explorer/context'].find((item) => item.command === 'spotImport.uploadToGallery');
    assert.ok(entry);
    assert.match(entry.group ?? '', /^5b_importexport@/);
  });
});
