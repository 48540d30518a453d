// Uploads inside a real extension host, against the built-in sandbox: the Explorer command with
// Uri arguments (several files), the gallery picker, a drop onto a gallery node, a cancelled
// upload and a partly failed one, each reporting what did and did not arrive.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { uploadWithProgress } from '../../src/extension/galleries/commands/uploadMedia';
import {
  JPEG,
  JPG,
  PNG,
  fixtureFile,
  galleryRow,
  importSpot,
  rows,
  tempFile,
  uniqueSourceId,
  useScriptedSandbox,
  waitFor,
  writeSpotDocument,
} from './galleriesSupport';

describe('Upload to a spot gallery', function () {
  this.timeout(60_000);
  const t = useScriptedSandbox();

  async function serverFiles(galleryId: number): Promise<string[]> {
    const { client } = await t.services.clients.client();
    return (await client.getGallery(galleryId)).media.map((media) => media.file);
  }

  it('uploads several Explorer files (uri, uris[]) to the gallery picked, pending first', async () => {
    // An uploaded gallery first, then a pending one: the picker must still list the pending first.
    const older = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('older'), ['fld_37_13']));
    const profileId = t.services.profiles.active()!.id;
    await t.services.galleries.markUploaded(profileId, older.pendingGalleries[0].galleryId);
    const sourceId = uniqueSourceId('explorer');
    const result = await importSpot(t.ui, writeSpotDocument(sourceId, ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;

    t.ui.expect(
      { kind: 'quickPick', match: 'Upload 2 files to', pick: (item) => item.description === `gallery ${galleryId} · pending` },
      { kind: 'info', match: `Uploaded 2 files`, button: undefined },
    );
    const files = [fixtureFile(PNG), fixtureFile(JPEG)];
    await vscode.commands.executeCommand('spotImport.uploadToGallery', files[0], files);

    const picker = t.ui.shown.find((prompt) => prompt.kind === 'quickPick')!;
    assert.deepStrictEqual(picker.items, ['fld_37_12', 'fld_37_13', 'Enter Gallery Id…']);
    assert.match(t.ui.shown.at(-1)!.text, new RegExp(`Uploaded 2 files \\(\\d+ KB\\) to gallery ${galleryId}\\.`));
    assert.deepStrictEqual(await serverFiles(galleryId), [PNG, JPEG]);
    assert.deepStrictEqual(
      (await rows(t.services, (await galleryRow(t.services, galleryId)).node)).map((row) => row.label),
      [PNG, JPEG],
    );
    assert.strictEqual(t.services.galleries.list(profileId).find((known) => known.galleryId === galleryId)?.pending, false);
    t.done();
  });

  it('uploads to a gallery id typed into the picker and remembers that gallery', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('typed'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const profileId = t.services.profiles.active()!.id;
    await t.services.galleries.remove(profileId, galleryId);
    await importSpot(t.ui, writeSpotDocument(uniqueSourceId('other'), ['fld_37_12'])); // so the picker is shown

    t.ui.expect(
      { kind: 'quickPick', match: /Upload .*trail-marker\.png to/, pick: 'Enter Gallery Id…' },
      { kind: 'input', answer: String(galleryId) },
      { kind: 'info', match: 'Uploaded 1 file' },
    );
    await vscode.commands.executeCommand('spotImport.uploadToGallery', fixtureFile(PNG), [fixtureFile(PNG)]);
    assert.deepStrictEqual(await serverFiles(galleryId), [PNG]);
    assert.deepStrictEqual(
      t.services.galleries.list(profileId).find((known) => known.galleryId === galleryId),
      { galleryId, pending: false },
    );
    t.done();
  });

  it('uploads files dropped from the Explorer onto a gallery node', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('drop'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const row = await galleryRow(t.services, galleryId);

    t.ui.expect({ kind: 'info', match: 'Uploaded 2 files' });
    const transfer = new vscode.DataTransfer();
    transfer.set('text/uri-list', new vscode.DataTransferItem(`${fixtureFile(JPG).toString()}\r\n# a comment line\r\n${fixtureFile(PNG).toString()}`));
    const token = new vscode.CancellationTokenSource().token;
    await t.services.galleriesView.dropController.handleDrop(row.node, transfer, token);

    await waitFor('the upload message', () => t.ui.shown.some((prompt) => prompt.text.startsWith('Uploaded')));
    assert.deepStrictEqual(await serverFiles(galleryId), [JPG, PNG]);
    t.done();
  });

  it('says a cancelled upload was cancelled and which files arrived', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('cancel'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const files = [fixtureFile(PNG), fixtureFile(JPG), fixtureFile(JPEG)];

    t.ui.expect({
      kind: 'warning',
      match: `Upload to gallery ${galleryId} cancelled. Arrived (1): ${PNG}. Not sent (2): ${JPG}, ${JPEG}.`,
      button: undefined,
    });
    // Cancel as the notification's button would, right after the first file has arrived.
    const cancel = new AbortController();
    const outcome = await uploadWithProgress(t.services, galleryId, files, { signal: cancel.signal, onFileDone: () => cancel.abort() });

    assert.strictEqual(outcome.cancelled, true);
    assert.deepStrictEqual(
      outcome.files.map((file) => file.status),
      ['arrived', 'notSent', 'notSent'],
    );
    assert.deepStrictEqual(t.ui.shown.at(-1)!.buttons, ['Upload the Rest']);
    assert.deepStrictEqual(await serverFiles(galleryId), [PNG], 'only the first file reached the service');
    assert.deepStrictEqual(
      (await rows(t.services, (await galleryRow(t.services, galleryId)).node)).map((row) => row.label),
      [PNG],
    );
    t.done();
  });

  it('skips what cannot go into a gallery (empty, a type not accepted), says why, and uploads the rest', async () => {
    const result = await importSpot(t.ui, writeSpotDocument(uniqueSourceId('skip'), ['fld_37_12']));
    const galleryId = result.pendingGalleries[0].galleryId;
    const empty = tempFile('empty.png', Buffer.alloc(0));
    const notes = tempFile('notes.txt', Buffer.from('not a picture'));

    // The media rules import applies: checked before a byte is sent, never sent.
    t.ui.expect(
      { kind: 'quickPick', pick: (item) => item.description === `gallery ${galleryId} · pending` },
      {
        kind: 'info',
        match: new RegExp(
          `^Uploaded 2 files \\(\\d+ KB\\) to gallery ${galleryId}\\. Skipped 2 items that cannot go into a gallery: empty\\.png: the file is empty; notes\\.txt: type text/plain is not accepted`,
        ),
      },
    );
    await vscode.commands.executeCommand('spotImport.uploadToGallery', fixtureFile(PNG), [fixtureFile(PNG), empty, notes, fixtureFile(JPG)]);
    // notes.txt would be stored if it were sent; empty.png would be refused (a Failed group, not Skipped).
    assert.deepStrictEqual(await serverFiles(galleryId), [PNG, JPG]);
    t.done();
  });

  it('stops at a gallery that does not exist and says nothing arrived', async () => {
    const missing = 987_654_320;
    t.ui.expect(
      { kind: 'openDialog', answer: [fixtureFile(PNG), fixtureFile(JPG)] },
      { kind: 'error', match: new RegExp(`Upload to gallery ${missing} failed: .*does not exist.*Failed \\(1\\): ${PNG}\\. Not sent \\(1\\): ${JPG}\\.`) },
    );
    await vscode.commands.executeCommand('spotImport.gallery.upload', { galleryId: missing });
    t.done();
  });
});
