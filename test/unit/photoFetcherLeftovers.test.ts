// A run killed (SIGKILL) while a photo downloads leaves its temporary file (.part) in
// .spot-import/downloads. The next run removes it, never takes it for the photo, and fetches the
// photo whole; a .part another process is writing now is left alone. The kill is real: a child
// process fetches from a loopback server that sends half the photo and waits.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PhotoFetcher } from '../../src/core/media/remote/photoFetcher';
import { scriptedServer } from './helpers/scriptedServer';

const CHILD = join(__dirname, 'helpers', 'photoFetchChild.js');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Buffer.from('JFIF photo bytes '.repeat(1000))]);

const parts = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.part'));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 20)))
    if (Date.now() - started > 10_000) assert.fail(`waited 10 s for ${what}`);
}

describe('core media: a photo download cut off by a kill', function () {
  this.timeout(30_000);
  let cacheDir: string;
  const closing: Array<() => Promise<void>> = [];
  beforeEach(() => (cacheDir = mkdtempSync(join(tmpdir(), 'spot-fetch-kill-'))));
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("the next run removes the killed run's .part, fetches the photo whole, and leaves a live download's .part alone", async () => {
    let requests = 0;
    const server = await scriptedServer((_, response) => {
      requests++;
      if (requests > 1) return void response.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
      // The first run gets half the photo, and then nothing: it is killed meanwhile.
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(JPEG.length) });
      response.write(JPEG.subarray(0, JPEG.length / 2));
    });
    closing.push(server.close);
    const address = `${server.url}/photo.jpg`;

    const child = spawn(process.execPath, [CHILD, cacheDir, address], { stdio: 'ignore' });
    await until(() => parts(cacheDir).length === 1, "the first run's .part");
    child.kill('SIGKILL');
    await once(child, 'exit');
    const [left] = parts(cacheDir);

    // Beside it, downloads under way: one of this (running) process, and one named as earlier versions did (no process in it).
    const key = createHash('sha256').update(`${server.url}/other.jpg`).digest('hex').slice(0, 40);
    const live = `${key}.${process.pid}.0a0b0c0d.part`;
    const unnamed = `${key}.0a0b0c0d.part`;
    writeFileSync(join(cacheDir, live), 'half');
    writeFileSync(join(cacheDir, unnamed), 'half');
    // And one of those a day old: no download takes that long (each attempt has a deadline).
    const old = `${key}.01020304.part`;
    writeFileSync(join(cacheDir, old), 'half');
    const dayAgo = new Date(Date.now() - 24 * 3600_000);
    utimesSync(join(cacheDir, old), dayAgo, dayAgo);

    const fetched = await new PhotoFetcher({ cacheDir }).fetch(address);
    assert.equal(fetched.from, 'server', 'the .part is no download');
    assert.deepEqual(readFileSync(fetched.path), JPEG);
    assert.equal(requests, 2);
    assert.deepEqual(parts(cacheDir).sort(), [live, unnamed].sort(), `${left} (its process killed) and the day-old one are removed`);
  });
});
