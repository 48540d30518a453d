// The run's budget of held media bytes (HeldContent): the check keeps the bytes of small files it
// read, within the budget, and every way a file leaves the run gives its room back exactly once.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSpotMedia } from '../../src/core/media/checkSpotMedia';
import { HeldContent, HOLD_FILE_BYTES } from '../../src/core/media/heldContent';
import { writeSpot } from './helpers/workflowFixtures';

describe('media workflow: held media bytes', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-held-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** What the budget has left (up to one file's limit), read by reserving it and giving it back. */
  function left(held: HeldContent, upTo: number): number {
    let low = 0;
    let high = upTo;
    while (low < high) {
      const probe = Math.ceil((low + high) / 2);
      if (held.reserve(probe)) {
        held.unreserve(probe);
        low = probe;
      } else high = probe - 1;
    }
    return low;
  }

  it('holds the checked bytes of files up to its limits, the very bytes on disk, and gets every byte back on release', async () => {
    const fixture = writeSpot(dir, 'held', { fld_1_3: ['01.jpg', '02.jpg', '03.jpg'] }, { size: 300 * 1024 });
    const text = readFileSync(fixture.path, 'utf8');
    // Room for two of the three files.
    const held = new HeldContent(700 * 1024);
    const check = await checkSpotMedia(fixture.path, text, { holdContent: held });
    assert.ok(check.ok, JSON.stringify(check.problems));
    const files = check.galleries[0].files;
    assert.deepEqual(
      files.map((file) => file.content !== undefined),
      [true, true, false],
    );
    for (const [index, file] of files.entries()) {
      if (file.content) assert.ok(file.content.equals(fixture.media.fld_1_3[index].bytes), `${file.name} holds its bytes`);
    }
    assert.equal(left(held, 1024 * 1024), 100 * 1024);
    held.release(files);
    held.release(files); // twice: nothing more comes back
    assert.ok(files.every((file) => file.content === undefined));
    assert.equal(left(held, 1024 * 1024), 700 * 1024);
  });

  it('does not hold a file above the per-file limit, and gives back the room of a duplicate it drops', async () => {
    const big = writeSpot(dir, 'big', { fld_1_3: ['01.jpg'] }, { size: HOLD_FILE_BYTES + 1 });
    // Room for it in the budget: only the per-file limit can refuse it.
    const roomy = new HeldContent(2 * HOLD_FILE_BYTES);
    const bigCheck = await checkSpotMedia(big.path, readFileSync(big.path, 'utf8'), { holdContent: roomy });
    assert.equal(bigCheck.galleries[0].files[0].content, undefined);
    assert.equal(left(roomy, HOLD_FILE_BYTES), HOLD_FILE_BYTES);

    const held = new HeldContent(HOLD_FILE_BYTES);
    const twins = writeSpot(dir, 'twins', { fld_1_3: ['01.jpg'] }, { size: 1000 });
    const copy = join(dir, 'twins.media', 'fld_1_3', '02.jpg');
    copyFileSync(join(dir, 'twins.media', 'fld_1_3', '01.jpg'), copy);
    const twinCheck = await checkSpotMedia(twins.path, readFileSync(twins.path, 'utf8'), { holdContent: held });
    assert.ok(!twinCheck.ok, 'the duplicate is a problem');
    assert.equal(left(held, HOLD_FILE_BYTES), HOLD_FILE_BYTES - 1000, 'only the kept twin holds room');
  });

  it("reads the next spot's files into the memory the last one gave back, never into memory still held", async () => {
    const first = writeSpot(dir, 'first', { fld_1_3: ['01.jpg', '02.jpg'] }, { size: 200 * 1024 });
    const second = writeSpot(dir, 'second', { fld_1_3: ['01.jpg', '02.jpg'] }, { size: 200 * 1024 + 77 });
    const held = new HeldContent();
    const check = async (spot: typeof first) => (await checkSpotMedia(spot.path, readFileSync(spot.path, 'utf8'), { holdContent: held })).galleries[0].files;
    const firstFiles = await check(first);
    const firstMemory: Array<ArrayBufferLike | undefined> = firstFiles.map((file) => file.content?.buffer);
    assert.ok(firstMemory.every((memory) => memory !== undefined));
    assert.notEqual(firstMemory[0], firstMemory[1], 'each held file has memory of its own');
    // Still held: the next spot's files must not share the memory.
    const meanwhile = await check(second);
    for (const file of meanwhile) assert.ok(file.content && !firstMemory.includes(file.content.buffer), `${file.name} is read into memory nobody holds`);
    const givenBack: Array<ArrayBufferLike | undefined> = [...firstMemory, ...meanwhile.map((file) => file.content?.buffer)];
    held.release(meanwhile);
    held.release(firstFiles);
    const next = await check(second);
    assert.equal(new Set(next.map((file) => file.content?.buffer)).size, 2, 'each held file has memory of its own');
    for (const file of next) assert.ok(givenBack.includes(file.content?.buffer), `${file.name} is read into memory given back`);
    for (const [index, file] of next.entries()) assert.ok(file.content?.equals(second.media.fld_1_3[index].bytes), `${file.name} holds its own bytes`);
  });
});
