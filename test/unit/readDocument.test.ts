import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSpotDocument, readSpotDocumentSync } from '../../src/core/documents/readDocument';
import { MAX_DOCUMENT_BYTES } from '../../src/core/documents/parseSpotText';

// The one read of a spot document: the command line reads thousands synchronously, each into a
// buffer kept for the next. Whatever the path, the text is the file's, a byte-order mark kept, a
// file too large refused unread, bytes that are not UTF-8 refused with their line.
describe('reading a spot document', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-read-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('reads each file whole, one after another, a shorter one after a longer one included', async () => {
    const texts = ['{"a": "ünïcödé 🌳"}', '\uFEFF{"bom": true}', 'x'.repeat(70 * 1024), '{}', '', 'y'.repeat(64 * 1024)];
    for (const [index, text] of texts.entries()) {
      const path = file(`${index}.spot.json`, text);
      assert.equal(readSpotDocumentSync(path), text, `document ${index}`);
      assert.equal(await readSpotDocument(path), text);
    }
  });

  it('refuses a file larger than a document can be, without reading it, and bytes that are not UTF-8 with their line', async () => {
    const large = join(dir, 'large.spot.json');
    writeFileSync(large, '');
    truncateSync(large, MAX_DOCUMENT_BYTES + 1);
    assert.throws(() => readSpotDocumentSync(large), /larger than a spot document can be/);
    await assert.rejects(readSpotDocument(large), /larger than a spot document can be/);
    const latin1 = file('latin1.spot.json', Buffer.concat([Buffer.from('{\n"name":\n"'), Buffer.from([0xe9]), Buffer.from('"}')]));
    assert.throws(() => readSpotDocumentSync(latin1), /not UTF-8 text.*on line 3/);
    assert.throws(() => readSpotDocumentSync(join(dir, 'missing.spot.json')), /ENOENT/);
  });

  it('reads to the end a file whose size the system gives as 0', function () {
    if (process.platform !== 'linux') this.skip();
    assert.equal(statSync('/proc/self/cmdline').size, 0);
    assert.equal(readSpotDocumentSync('/proc/self/cmdline'), readFileSync('/proc/self/cmdline', 'utf8'));
    assert.ok(readFileSync('/proc/self/cmdline', 'utf8').length > 0);
  });
});
