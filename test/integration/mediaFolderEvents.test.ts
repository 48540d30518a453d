// The media folders of open spot documents are followed by an object the extension owns (issue 33:
// no hidden process state): each document's folder is watched from the moment `follow` returns, a
// media folder made later or removed and made again is followed too, and once a document is
// unfollowed or the object disposed, a change reaches nobody. Folders are outside the workspace on
// purpose: VS Code's workspace watcher does not see them, so only the direct watch can.
import * as assert from 'assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import * as vscode from 'vscode';
import { MediaFolderEvents } from '../../src/extension/documents/mediaFolderEvents';

async function seenWithin(seen: string[], path: string, ms = 5_000): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 25) {
    if (seen.some((entry) => entry === path || entry.startsWith(`${path}/`))) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

suite('media folder events', () => {
  let root: string;
  let events: MediaFolderEvents;
  const seen: string[] = [];
  setup(() => {
    root = mkdtempSync(join(tmpdir(), 'media-events-'));
    events = new MediaFolderEvents();
    events.onChange((uri) => seen.push(uri.fsPath));
    seen.length = 0;
  });
  teardown(() => {
    events.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  test('a change in a gallery folder right after follow returns is reported, in a folder made moments before', async () => {
    const document = vscode.Uri.file(join(root, 'a.spot.json'));
    const gallery = join(root, 'a.media', 'fld_1');
    mkdirSync(gallery, { recursive: true });
    writeFileSync(join(gallery, '01.jpg'), 'jpeg');
    await events.follow(document, join(root, 'a.media'));
    assert.deepEqual(events.watchedFor(document), [root, join(root, 'a.media'), gallery]);
    rmSync(join(gallery, '01.jpg'));
    assert.ok(await seenWithin(seen, join(gallery, '01.jpg')), `the removal was seen: ${seen.join(', ')}`);
  });

  test("the media folder's creation is reported, then (followed again) a change inside it; removed and made again, likewise", async () => {
    const document = vscode.Uri.file(join(root, 'b.spot.json'));
    const media = join(root, 'b.media');
    await events.follow(document, media);
    assert.deepEqual(events.watchedFor(document), [root], 'the folder the media folder will be made in');
    writeFileSync(join(root, 'unrelated.txt'), 'x');
    mkdirSync(join(media, 'fld_1'), { recursive: true });
    assert.ok(await seenWithin(seen, media), `the media folder's creation was seen: ${seen.join(', ')}`);
    assert.ok(!seen.some((path) => path.endsWith('unrelated.txt')), 'other files of the folder are not reported');
    await events.follow(document, media);
    writeFileSync(join(media, 'fld_1', '01.jpg'), 'jpeg');
    assert.ok(await seenWithin(seen, join(media, 'fld_1', '01.jpg')), `the new file was seen: ${seen.join(', ')}`);

    rmSync(media, { recursive: true });
    assert.ok(await seenWithin(seen, media), 'the removal was seen');
    mkdirSync(join(media, 'fld_1'), { recursive: true });
    await events.follow(document, media);
    seen.length = 0;
    writeFileSync(join(media, 'fld_1', '02.jpg'), 'jpeg');
    assert.ok(await seenWithin(seen, join(media, 'fld_1', '02.jpg')), `a file in the folder made again was seen: ${seen.join(', ')}`);
  });

  test('once unfollowed or disposed, nothing is watched and nothing arrives', async () => {
    const first = vscode.Uri.file(join(root, 'c.spot.json'));
    const second = vscode.Uri.file(join(root, 'd.spot.json'));
    for (const name of ['c', 'd']) mkdirSync(join(root, `${name}.media`, 'fld_1'), { recursive: true });
    await events.follow(first, join(root, 'c.media'));
    await events.follow(second, join(root, 'd.media'));
    events.unfollow(first);
    assert.deepEqual(events.watchedFor(first), []);
    writeFileSync(join(root, 'c.media', 'fld_1', '01.jpg'), 'jpeg');
    writeFileSync(join(root, 'd.media', 'fld_1', '01.jpg'), 'jpeg');
    assert.ok(await seenWithin(seen, join(root, 'd.media')), 'the followed one is still reported');
    assert.ok(!seen.some((path) => path.startsWith(join(root, 'c.media'))), `the unfollowed one is not: ${seen.join(', ')}`);
    events.dispose();
    assert.deepEqual(events.watchedFor(second), []);
    seen.length = 0;
    writeFileSync(join(root, 'd.media', 'fld_1', '02.jpg'), 'jpeg');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(seen, [], 'nothing arrives after dispose');
  });
});
