// The one atomic file write (src/core/files/atomicFile.ts) that spot documents, the media
// journal, the sandbox's state.json and the extension's code cache all use.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAtomicWriteLeftover, syncFolder, writeFileAtomic } from '../../src/core/files/atomicFile';

describe('atomic file write', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spot-atomic-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates and replaces a file whole, with the mode asked for, and leaves no temporary file', async () => {
    const file = join(dir, 'a.spot.json');
    await writeFileAtomic(file, 'first');
    await writeFileAtomic(file, Buffer.from('second, longer'), { mode: 0o600, syncFolder: false });
    assert.equal(readFileSync(file, 'utf8'), 'second, longer');
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['a.spot.json']);
  });

  it('fails without touching the old file or leaving a temporary one when the rename fails', async () => {
    const file = join(dir, 'taken');
    mkdirSync(join(file, 'inside'), { recursive: true });
    await assert.rejects(writeFileAtomic(file, 'text'));
    assert.deepEqual(readdirSync(dir), ['taken']);
    assert.deepEqual(readdirSync(file), ['inside']);
  });

  it('names its temporary files so a later start can tell them from everything else', () => {
    assert.ok(isAtomicWriteLeftover('.state.json.4242.0a1b2c3d.tmp', 'state.json'));
    assert.ok(!isAtomicWriteLeftover('.state.json.4242.0a1b2c3d.tmp', 'other.json'));
    assert.ok(!isAtomicWriteLeftover('state.json', 'state.json'));
    assert.ok(!isAtomicWriteLeftover('.state.json.bak', 'state.json'));
  });

  it('syncs a folder; one that cannot be opened is let be, unless strict', async () => {
    writeFileSync(join(dir, 'x'), 'x');
    await syncFolder(dir);
    await syncFolder(dir, { strict: true });
    const missing = join(dir, 'no-such-folder');
    await syncFolder(missing);
    if (process.platform !== 'win32') await assert.rejects(syncFolder(missing, { strict: true }), { code: 'ENOENT' });
  });
});
