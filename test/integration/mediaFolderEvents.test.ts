// The media-folder watcher is an object the extension owns (issue 33: no hidden process state):
// made on first use, shared by its listeners, and closed when it is disposed, after which a
// change under a media folder reaches nobody.
import * as assert from 'assert';
import { mkdirSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';
import * as vscode from 'vscode';
import { MediaFolderEvents } from '../../src/extension/documents/mediaFolderEvents';

suite('media folder events', () => {
  test('a change below a media folder reaches the listeners; once disposed, the watcher is closed and nothing arrives', async () => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the fixture workspace is open');
    const folder = join(root, `watch-${process.pid}-${Date.now()}.media`);
    const events = new MediaFolderEvents();
    const seen: string[] = [];
    try {
      assert.equal(events.watching, false, 'no watcher before anyone asks');
      const subscription = events.onChange((uri) => seen.push(uri.fsPath));
      assert.equal(events.watching, true);
      mkdirSync(folder);
      writeFileSync(join(folder, 'a.jpg'), 'jpeg');
      // The platform's watcher may report a folder made with a file in it as the folder alone: either is a change of that media folder.
      const below = () => seen.some((path) => path === folder || path.startsWith(`${folder}/`));
      for (let waited = 0; waited < 10_000 && !below(); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(below(), `a change of the new media folder was seen: ${seen.join(', ')}`);
      subscription.dispose();
      events.dispose();
      assert.equal(events.watching, false, 'disposing closes the watcher');
      seen.length = 0;
      writeFileSync(join(folder, 'b.jpg'), 'jpeg');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.deepEqual(seen, [], 'nothing arrives after dispose');
    } finally {
      events.dispose();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
