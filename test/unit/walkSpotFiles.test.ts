import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { walkSpotFiles, type WalkOptions } from '../../src/extension/documents/walkSpotFiles';

const options: WalkOptions = { skip: (name) => name === 'node_modules' || name.endsWith('.db'), skipDotFolders: true, maxEntries: 10_000 };

describe("walkSpotFiles: a folder's spot documents by name, the guess a map reads before the search ends", () => {
  let root: string;
  const write = (relative: string, text = '{}') => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  };
  const relative = (found: string[] | undefined) => found?.map((each) => path.relative(root, each).split(path.sep).join('/')).sort();

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'walk-spots-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('finds *.spot.json at any depth (any case), and passes over node_modules, dot-folders, excluded names and other files', async () => {
    for (const file of [
      'a.spot.json',
      'deep/er/still/b.SPOT.JSON',
      'c.json',
      'd.spot.json.bak',
      'node_modules/pkg/e.spot.json',
      '.hidden/f.spot.json',
      'Thumbs.db/g.spot.json',
      '.h.spot.json',
    ])
      write(file);
    // A dot-file is found as the search finds it: only dot-folders are passed over.
    assert.deepEqual(relative(await walkSpotFiles(root, options)), ['.h.spot.json', 'a.spot.json', 'deep/er/still/b.SPOT.JSON']);
  });

  it('passes over symbolic links (the search follows them, and adds what they lead to)', async function () {
    write('real/a.spot.json');
    try {
      fs.symlinkSync(path.join(root, 'real'), path.join(root, 'link'), 'dir');
      fs.symlinkSync(path.join(root, 'real/a.spot.json'), path.join(root, 'b.spot.json'));
    } catch {
      this.skip();
    }
    assert.deepEqual(relative(await walkSpotFiles(root, options)), ['real/a.spot.json']);
  });

  it('gives up past its limit of entries, counting every file it lists, and on a folder it cannot read', async () => {
    for (let index = 0; index < 30; index++) write(`many/${index}.txt`);
    write('many/one.spot.json');
    assert.equal(await walkSpotFiles(root, { ...options, maxEntries: 30 }), undefined, '32 entries (the folder and its 31 files) against 30');
    assert.deepEqual(relative(await walkSpotFiles(root, { ...options, maxEntries: 32 })), ['many/one.spot.json']);
    assert.equal(await walkSpotFiles(path.join(root, 'missing'), options), undefined);
  });

  it('stops when aborted', async () => {
    write('a.spot.json');
    const controller = new AbortController();
    controller.abort();
    assert.equal(await walkSpotFiles(root, { ...options, signal: controller.signal }), undefined);
  });
});
