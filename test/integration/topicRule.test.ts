// One topic rule for every import: a profile that names its topic refuses a document of another
// topic_id, placed on its topic_id, with nothing sent, whether it is imported alone, with its
// media, or with a folder (Import Folder used not to check it; the two single imports asked in a
// modal). The command line refuses it the same way (test/unit/cliImport.test.ts).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { FolderImportSummary } from '../../src/extension/import/importFolder';
import { installScriptedUi } from './helpers/scriptedUi';
import { closeAllEditors, counters, TEST_CLIENT, useTestProfile } from './helpers/testEnv';

describe('one topic rule for every import', () => {
  let restore: (() => void) | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    restore?.();
    await closeAllEditors();
    await cleanup?.();
    cleanup = restore = undefined;
  });

  /** A profile for topic 37 on the test sandbox, made active; a folder with one spot of topic 1 and one of topic 37. */
  async function setUp(): Promise<{ dir: string; other: string; ours: string; sandbox: Awaited<ReturnType<typeof useTestProfile>>['sandbox'] }> {
    const { services, sandbox } = await useTestProfile();
    const profile = await services.profiles.add({ name: 'IT topic 37', baseUrl: sandbox.baseUrl, apiVersion: 'v2.4', topicId: 37 });
    await services.credentials.set(profile.id, TEST_CLIENT);
    await services.profiles.setActive(profile.id);
    cleanup = async () => {
      await services.credentials.delete(profile.id);
      await services.profiles.remove(profile.id);
      await useTestProfile();
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'it-topic-rule-'));
    const stamp = Date.now().toString(36);
    const write = (name: string, topicId: number) => {
      const file = path.join(dir, name);
      fs.writeFileSync(
        file,
        JSON.stringify(
          { data: { type: 'spots', attributes: { topic_id: topicId, source_id: `it-topic-${stamp}-${topicId}`, latitude: 47.07, longitude: 15.44 } } },
          null,
          2,
        ),
      );
      return file;
    };
    return { dir, other: write('a-other.spot.json', 1), ours: write('b-ours.spot.json', 37), sandbox };
  }

  const refusal = /topic_id is 1, but profile "IT topic 37" imports into topic 37/;

  it('Import Spot refuses a document of another topic, at its topic_id, and sends nothing', async () => {
    const { other, sandbox } = await setUp();
    const before = counters(sandbox).imports;
    const run = await installScriptedUi([{ kind: 'error', match: refusal }]);
    restore = run.restore;
    assert.strictEqual(await vscode.commands.executeCommand('spotImport.importSpot', vscode.Uri.file(other)), undefined);
    run.done();
    assert.strictEqual(counters(sandbox).imports, before, 'nothing was sent');
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.fsPath, other);
    assert.strictEqual(editor.document.getText(editor.selection), '1', 'at its topic_id');
  });

  it('Import Spot with Media refuses it too', async () => {
    const { other, sandbox } = await setUp();
    const before = counters(sandbox).imports;
    const run = await installScriptedUi([{ kind: 'error', match: refusal }]);
    restore = run.restore;
    await vscode.commands.executeCommand('spotImport.importSpotWithMedia', vscode.Uri.file(other));
    run.done();
    assert.strictEqual(counters(sandbox).imports, before, 'nothing was sent');
  });

  it("Import Folder refuses it and imports the document of the profile's topic", async () => {
    const { dir, sandbox } = await setUp();
    const before = counters(sandbox).imports;
    const run = await installScriptedUi([{ kind: 'quickPick', match: /^Imported 1 of 2 spot documents to IT topic 37; 1 failed$/, pick: /a-other/ }]);
    restore = run.restore;
    const summary = await vscode.commands.executeCommand<FolderImportSummary>('spotImport.importFolder', vscode.Uri.file(dir));
    run.done();
    assert.deepStrictEqual(
      summary.failed.map((failure) => path.basename(failure.file)),
      ['a-other.spot.json'],
    );
    assert.match(summary.failed[0].reason, refusal);
    assert.strictEqual(counters(sandbox).imports, before + 1, 'only the document of topic 37 was sent');
  });
});
