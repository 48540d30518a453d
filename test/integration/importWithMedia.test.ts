// Import Spot with Media and Import Folder with media folders, end to end in the extension host
// against the in-process sandbox: the spot, its galleries and their media in one step; media
// problems on the document before anything is sent; a cancelled run finished by a second one.
// Documents and media are generated into temp folders (distinct PNG bytes per file).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { runFolderImport } from '../../src/extension/import/importFolder';
import { runImportSpotWithMedia } from '../../src/extension/import/importSpotWithMedia';
import type * as Core from '../../src/core';
import { installScriptedUi } from './helpers/scriptedUi';
import { closeAllEditors, counters, fixtureUri, readLogText, spotDiagnostics, useTestProfile, waitFor } from './helpers/testEnv';

let counter = 0;
function uniqueSourceId(prefix: string): string {
  return `it-media-${prefix}-${Date.now().toString(36)}-${++counter}`;
}

/** A PNG with bytes after its end marker, so every file has its own content (viewers ignore them). */
function png(seed: string): Buffer {
  return Buffer.concat([fs.readFileSync(fixtureUri('upload', 'trail-marker.png').fsPath), Buffer.from(seed)]);
}

/** `<dir>/<name>.spot.json` with pending gallery `field`, and `<name>.media/<field>/` holding `files`. */
function writeSpotWithMedia(dir: string, name: string, sourceId: string, files: Record<string, Buffer>, field = 'fld_1_3'): vscode.Uri {
  const file = path.join(dir, `${name}.spot.json`);
  const attributes = { topic_id: 1, source_id: sourceId, latitude: 47.07, longitude: 15.44, [field]: null };
  fs.writeFileSync(file, JSON.stringify({ data: { type: 'spots', attributes } }, null, 2) + '\n');
  const media = path.join(dir, `${name}.media`, field);
  fs.mkdirSync(media, { recursive: true });
  for (const [fileName, bytes] of Object.entries(files)) fs.writeFileSync(path.join(media, fileName), bytes);
  return vscode.Uri.file(file);
}

function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * A folder inside the test workspace (removed with the others after the suite): VS Code's file
 * watchers, which the diagnostics follow media folders with, see the workspace's files only.
 */
function workspaceTempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(fixtureUri().fsPath, `.${prefix}`));
}

describe('Import Spot with Media', function () {
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

  it('imports a document with its media folder: CodeLens, result with galleries, saved write-back, Galleries store, log lines, and an update the second time', async () => {
    const { services, sandbox, profile } = await useTestProfile();
    const dir = tempDir('it-media-');
    dirs.push(dir);
    const sourceId = uniqueSourceId('one');
    const uri = writeSpotWithMedia(dir, 'trail', sourceId, { '01-start.png': png('a'), '02-end.png': png('b') });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);

    const lenses = await waitFor('the media CodeLens', async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      return found.some((lens) => lens.command?.title.includes('Import with 2 media')) ? found : undefined;
    });
    const lens = lenses.find((candidate) => candidate.command?.command === 'spotImport.importSpotWithMedia');
    assert.ok(lens, 'the lens runs Import Spot with Media');
    assert.ok(
      lenses.some((candidate) => candidate.command?.command === 'spotImport.importSpot'),
      'the Import Spot lens stays',
    );

    const run = await installScriptedUi([
      {
        kind: 'info',
        match: new RegExp(`^Imported "${sourceId}" as new spot \\d+ to Integration sandbox with fld_1_3 → gallery \\d+ \\(2 of 2 media: 2 uploaded\\)\\.$`),
      },
    ]);
    restore = run.restore;
    const outcome = await vscode.commands.executeCommand<Core.SpotOutcome>(lens.command!.command, ...(lens.command!.arguments ?? []));
    await waitFor('the result message', () => run.ui.shown.length === 1);
    run.done();
    assert.strictEqual(outcome.status, 'done', outcome.reason);
    assert.deepStrictEqual(run.ui.shown[0].buttons, ['Show in Galleries']);
    const galleryId = outcome.galleries[0].galleryId!;
    assert.strictEqual(sandbox.gallery(galleryId)?.mediaIds.length, 2, 'both files are in the gallery');
    assert.strictEqual(sandbox.spotBySourceId(sourceId)?.attributes.state, 1);

    // Write-back: the open document was edited (undoable) and saved.
    assert.ok(!document.isDirty, 'saved');
    const saved = JSON.parse(fs.readFileSync(uri.fsPath, 'utf8'));
    assert.strictEqual(saved.data.attributes.fld_1_3, galleryId);
    assert.strictEqual(JSON.parse(document.getText()).data.attributes.fld_1_3, galleryId);

    const known = services.galleries.list(profile.id).find((gallery) => gallery.galleryId === galleryId);
    assert.deepStrictEqual(known, { galleryId, field: 'fld_1_3', spot: { spotId: outcome.spotId, sourceId, documentUri: uri.toString() }, pending: false });
    const log = await waitFor('the step lines in the log', async () => {
      const text = await readLogText();
      return text.includes(`"${sourceId}" upload:`) ? text : undefined;
    });
    assert.match(log, /\[media\] \S*trail\.spot\.json "[^"]+" import-final: imported spot \d+ with state 1/);

    // A second run: the same spot, updated; nothing sent twice.
    const uploadsBefore = counters(sandbox).uploads;
    const again = await installScriptedUi([
      {
        kind: 'info',
        match: new RegExp(
          `^Updated spot ${outcome.spotId} \\("${sourceId}"\\) on Integration sandbox with fld_1_3 → gallery ${galleryId} \\(2 of 2 media: 2 already there\\)\\.$`,
        ),
      },
    ]);
    restore = again.restore;
    const second = await runImportSpotWithMedia(services, uri, {});
    await waitFor('the second result', () => again.ui.shown.length === 1);
    again.done();
    assert.strictEqual(second?.spotId, outcome.spotId);
    assert.strictEqual(counters(sandbox).uploads, uploadsBefore, 'no file sent again');
  });

  it('shows media problems on the document and sends nothing', async () => {
    const { sandbox } = await useTestProfile();
    const dir = tempDir('it-media-bad-');
    dirs.push(dir);
    const uri = writeSpotWithMedia(dir, 'bad', uniqueSourceId('bad'), { '01.png': png('x'), 'notes.txt': Buffer.from('not media') });
    const before = counters(sandbox);
    const run = await installScriptedUi([{ kind: 'error', match: /^Not imported, nothing was sent: .*notes\.txt/ }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.importSpotWithMedia', uri);
    await waitFor('the error', () => run.ui.shown.length === 1);
    run.done();
    const diagnostics = await waitFor('the media diagnostic', () => {
      const found = spotDiagnostics(uri).filter((diagnostic) => diagnostic.code === 'media');
      return found.length > 0 ? found : undefined;
    });
    assert.match(diagnostics[0].message, /notes\.txt: type text\/plain is not accepted/);
    assert.strictEqual(diagnostics[0].relatedInformation?.[0].location.uri.fsPath, path.join(dir, 'bad.media', 'fld_1_3', 'notes.txt'));
    assert.deepStrictEqual({ imports: counters(sandbox).imports, uploads: counters(sandbox).uploads }, { imports: before.imports, uploads: before.uploads });
  });

  it('media problems shown on a document go away when the file is fixed in its media folder, with no edit to the document', async () => {
    const dir = workspaceTempDir('it-media-fixed-');
    dirs.push(dir);
    const uri = writeSpotWithMedia(dir, 'fixed', uniqueSourceId('fixed'), { '01.png': png('fixed'), 'notes.txt': Buffer.from('not media') });
    await vscode.window.showTextDocument(uri);
    await waitFor('the media problem', () => spotDiagnostics(uri).some((diagnostic) => diagnostic.code === 'media'), 15_000);
    fs.rmSync(path.join(dir, 'fixed.media', 'fld_1_3', 'notes.txt'));
    await waitFor('the media problem gone once the file is removed', () => !spotDiagnostics(uri).some((diagnostic) => diagnostic.code === 'media'), 15_000);
  });

  it('follows the media folder of a document outside the workspace, and one made just before the document opened', async () => {
    // VS Code's workspace watcher sees neither: the first is outside it, and below a folder made
    // moments before it missed most changes. Each change is made after the checks have settled.
    for (const dir of [tempDir('it-media-outside-'), workspaceTempDir('it-media-new-')]) {
      dirs.push(dir);
      const uri = writeSpotWithMedia(dir, 'followed', uniqueSourceId('followed'), { '01.png': png('followed'), 'notes.txt': Buffer.from('not media') });
      await vscode.window.showTextDocument(uri);
      await waitFor(`the media problem in ${dir}`, () => spotDiagnostics(uri).some((diagnostic) => diagnostic.code === 'media'), 15_000);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      fs.rmSync(path.join(dir, 'followed.media', 'fld_1_3', 'notes.txt'));
      await waitFor(`the problem gone in ${dir}`, () => !spotDiagnostics(uri).some((diagnostic) => diagnostic.code === 'media'), 15_000);
      fs.writeFileSync(path.join(dir, 'followed.media', 'fld_1_3', 'notes.txt'), 'not media');
      await waitFor(`the problem back in ${dir}`, () => spotDiagnostics(uri).some((diagnostic) => diagnostic.code === 'media'), 15_000);
      await closeAllEditors();
    }
  });

  it('a media folder made after the document was opened is taken into its check at once', async () => {
    const dir = workspaceTempDir('it-media-later-');
    dirs.push(dir);
    // A pending gallery without "state": 2 is a problem until the document has media beside it.
    const uri = vscode.Uri.file(path.join(dir, 'later.spot.json'));
    fs.writeFileSync(
      uri.fsPath,
      JSON.stringify(
        { data: { type: 'spots', attributes: { topic_id: 1, source_id: uniqueSourceId('later'), latitude: 47.07, longitude: 15.44, fld_1_3: null } } },
        null,
        2,
      ) + '\n',
    );
    await vscode.window.showTextDocument(uri);
    await waitFor('the pending-gallery problem', () => spotDiagnostics(uri).some((diagnostic) => /pending/.test(diagnostic.message)), 15_000);
    fs.mkdirSync(path.join(dir, 'later.media', 'fld_1_3'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'later.media', 'fld_1_3', '01.png'), png('later'));
    await waitFor('the problem gone once media sit beside it', () => !spotDiagnostics(uri).some((diagnostic) => /pending/.test(diagnostic.message)), 15_000);
  });

  it("reads the media settings for the document's own folder (they may differ per folder of a multi-root workspace)", async () => {
    const { services } = await useTestProfile();
    const dir = tempDir('it-media-scope-');
    dirs.push(dir);
    const uri = writeSpotWithMedia(dir, 'scoped', uniqueSourceId('scoped'), { '01.png': png('scoped') });
    // Which scope the extension asks VS Code's configuration for: a single-folder test workspace
    // cannot hold per-folder values, so the question itself is what is checked.
    const scopes: string[] = [];
    const workspace = vscode.workspace as { getConfiguration: typeof vscode.workspace.getConfiguration };
    const real = workspace.getConfiguration;
    workspace.getConfiguration = (section?: string, scope?: vscode.ConfigurationScope | null) => {
      if (section === 'spotImport') scopes.push(scope instanceof vscode.Uri ? scope.toString() : String(scope));
      return real.call(vscode.workspace, section, scope);
    };
    try {
      const run = await installScriptedUi([{ kind: 'info', match: /1 of 1 media: 1 uploaded/ }]);
      restore = run.restore;
      await runImportSpotWithMedia(services, uri, {});
      run.done();
      assert.ok(scopes.includes(uri.toString()), `the import read the settings for the document: ${scopes.join(', ')}`);
      // The diagnostics' media check (the accepted types) too.
      scopes.length = 0;
      await vscode.window.showTextDocument(uri);
      await waitFor('the diagnostics to read the settings for the document', () => scopes.includes(uri.toString()), 15_000);
    } finally {
      workspace.getConfiguration = real;
    }
  });

  it('cancelled in the middle: says what is done and what a second run finishes, and the second run does', async () => {
    const { services, sandbox } = await useTestProfile();
    const dir = tempDir('it-media-cancel-');
    dirs.push(dir);
    const sourceId = uniqueSourceId('cancel');
    const uri = writeSpotWithMedia(dir, 'walk', sourceId, { '01.png': png('1'), '02.png': png('2'), '03.png': png('3') });
    const controller = new AbortController();
    const run = await installScriptedUi([
      {
        kind: 'warning',
        match: new RegExp(`^Import of "${sourceId}" cancelled\\. Spot \\d+ is on Integration sandbox: .*A second run will: .*upload \\d of 3 files`),
      },
    ]);
    restore = run.restore;
    const first = await runImportSpotWithMedia(services, uri, {
      signal: controller.signal,
      // Cancel while the first file goes out: that upload finishes, the rest waits.
      onProgress: (event) => {
        if (event.kind === 'bytes') controller.abort();
      },
    });
    await waitFor('the cancel message', () => run.ui.shown.length === 1);
    run.done();
    assert.strictEqual(first?.status, 'cancelled');
    assert.ok(first.remaining.length > 0);
    const galleryId = first.galleries[0].galleryId!;
    assert.ok((sandbox.gallery(galleryId)?.mediaIds.length ?? 0) < 3, 'not every file went out');
    assert.notStrictEqual(JSON.parse(fs.readFileSync(uri.fsPath, 'utf8')).data.attributes.state, 1);

    const again = await installScriptedUi([{ kind: 'info', match: new RegExp(`^Updated spot ${first.spotId} \\("${sourceId}"\\) .*\\(3 of 3 media: `) }]);
    restore = again.restore;
    const second = await runImportSpotWithMedia(services, uri, {});
    await waitFor('the result', () => again.ui.shown.length === 1);
    again.done();
    assert.strictEqual(second?.status, 'done', second?.reason);
    assert.strictEqual(sandbox.gallery(galleryId)?.mediaIds.length, 3, 'every file once');
    assert.strictEqual(sandbox.spotBySourceId(sourceId)?.attributes.state, 1);
    assert.strictEqual(JSON.parse(fs.readFileSync(uri.fsPath, 'utf8')).data.attributes.fld_1_3, galleryId);
  });

  it('Import Folder picks up media folders: per spot imported, media uploaded, failed with the reason; a picked failure opens the file', async () => {
    const { services, sandbox, profile } = await useTestProfile();
    const dir = tempDir('it-media-folder-');
    dirs.push(dir);
    const ids = { a: uniqueSourceId('a'), b: uniqueSourceId('b'), c: uniqueSourceId('c') };
    writeSpotWithMedia(dir, 'a', ids.a, { '1.png': png('a1'), '2.png': png('a2') });
    fs.writeFileSync(
      path.join(dir, 'b.spot.json'),
      JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: ids.b, latitude: 1, longitude: 2 } } }),
    );
    const bad = writeSpotWithMedia(dir, 'c', ids.c, { '1.png': png('c1'), 'clip.txt': Buffer.from('x') });
    const run = await installScriptedUi([
      {
        kind: 'quickPick',
        match: /^Imported 2 of 3 spot documents to Integration sandbox \(2 media uploaded, 0 already there\); 1 failed$/,
        pick: /c\.spot\.json/,
      },
    ]);
    restore = run.restore;
    const summary = await runFolderImport(services, vscode.Uri.file(dir), {});
    run.done();
    assert.ok(summary, 'a summary');
    assert.ok(
      summary.outcome.spots.some((spot) => spot.withMedia),
      'the media went with the spots',
    );
    assert.deepStrictEqual(summary.imported.map((entry) => [path.basename(entry.file), entry.kind, entry.media]).sort(), [
      ['a.spot.json', 'new', { uploaded: 2, skipped: 0 }],
      ['b.spot.json', 'new', { uploaded: 0, skipped: 0 }],
    ]);
    assert.strictEqual(summary.failed.length, 1);
    assert.match(summary.failed[0].reason, /clip\.txt: type text\/plain is not accepted.*nothing was sent/);
    const items = run.ui.shown[0].items ?? [];
    assert.ok(items[0].includes('c.spot.json'), `failures first: ${items.join(' | ')}`);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, bad.fsPath, 'the failed file is open');
    assert.strictEqual(sandbox.spotBySourceId(ids.c), undefined, 'the invalid spot was not sent');
    const a = sandbox.spotBySourceId(ids.a);
    const galleryId = Number(a?.attributes.fld_1_3);
    assert.strictEqual(sandbox.gallery(galleryId)?.mediaIds.length, 2);
    assert.strictEqual(JSON.parse(fs.readFileSync(path.join(dir, 'a.spot.json'), 'utf8')).data.attributes.fld_1_3, galleryId, 'written back');
    assert.ok(services.galleries.list(profile.id).some((known) => known.galleryId === galleryId && !known.pending));
  });
});
