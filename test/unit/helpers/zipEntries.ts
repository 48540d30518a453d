// The entries of a .vsix (a zip file), read from its central directory. Node has no zip reader and
// the project depends on none (yauzl is only vsce's own dependency); a .vsix written by vsce is a
// plain zip (no zip64, no encryption), entries stored or deflated, which is all this reads. And a
// writer (yazl, a dev dependency) for the archives other tests read.
import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { ZipFile } from 'yazl';

/** Every entry's name, in the zip's order, with its uncompressed contents. */
export function zipEntries(file: string): Array<{ name: string; contents: Buffer }> {
  const zip = readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file}: no end of central directory: not a zip`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: Array<{ name: string; contents: Buffer }> = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: central directory entry ${i} is damaged`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(data, data + compressed);
    if (method !== 0 && method !== 8) throw new Error(`${file}: ${name} uses compression method ${method}`);
    entries.push({ name, contents: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** Writes a zip of these entries (name → content), each deflated as yazl does by default: the archives the tests read as a form tool's export. */
export async function writeZip(path: string, entries: Record<string, Buffer | string>): Promise<void> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'), name);
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}
