// What is validated is what is sent: the editor's Import Spot and the folder import (and the demo,
// which is the folder import) put the same bytes on the wire for the same file; a byte-order mark
// is accepted and never sent; a member named twice is refused, since the service might read either.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCore, type CoreSetup } from './helpers/coreSetup';
import { startCaptureProxy, type CaptureProxy } from './helpers/captureProxy';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { journalAccountOf, runImport, type SpotOutcome, spotDocumentFiles } from '../../src/core/import';
import { parseSpotText } from '../../src/core/documents/parseSpotText';
import { sendSpot } from '../../src/core/import/sendSpot';
import { duplicateMembers, provablyNoDuplicates } from '../../src/core/documents/duplicateMembers';
import { parseTree } from 'jsonc-parser';
import { testAccounts } from './helpers/testAccounts';

const BOM = '\uFEFF';

/** A valid spot document with CRLF line ends and unusual spacing, as a hand-edited file may be. */
function oddlyFormatted(sourceId: string): string {
  return [
    '{ "data" :{',
    '\t"type":"spots" ,   "attributes": {',
    `   "topic_id" : 7.0, "source_id":"${sourceId}",`,
    '  "latitude":48.20820, "longitude" :  16.3738e0 ,"fld_1_9":"kept as written"',
    '}}  }',
    '',
  ].join('\r\n');
}

describe('what is validated is what is sent', () => {
  let setup: CoreSetup | undefined;
  let proxy: CaptureProxy | undefined;
  let client: ServiceClient;
  let dir: string;

  beforeEach(async () => {
    setup = await startCore();
    proxy = await startCaptureProxy(setup.sandbox.baseUrl);
    client = new ServiceClient({ baseUrl: proxy.baseUrl, tokens: setup.tokens, retry: { baseMs: 5, maxMs: 100 } });
    dir = mkdtempSync(join(tmpdir(), 'spot-text-'));
  });
  afterEach(async () => {
    await proxy?.close();
    await setup?.sandbox.close();
    rmSync(dir, { recursive: true, force: true });
    setup = proxy = undefined;
  });

  function writeSpot(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text, 'utf8');
    return path;
  }

  /** The folder import and the command line: spot documents from files through the import engine. */
  async function importFiles(paths: string[]): Promise<SpotOutcome[]> {
    const journal = { accounts: testAccounts, dir: join(dir, '.spot-import'), account: journalAccountOf(client.apiRoot, 'spot-text') };
    return (await runImport(spotDocumentFiles(paths), { client, journal, media: false })).spots;
  }

  /** What the editor's Import Spot does with a buffer holding `text` (src/extension/import/importSpot.ts). */
  async function importAsEditor(text: string): Promise<void> {
    const parsed = parseSpotText(text);
    assert.deepEqual(parsed.problems, []);
    assert.ok(parsed.document);
    await sendSpot(client, parsed);
  }

  it('sends the same bytes from the editor path and the folder path, less the byte-order mark', async () => {
    const text = BOM + oddlyFormatted('same-bytes');
    const path = writeSpot('same.spot.json', text);
    await importAsEditor(text);
    const [outcome] = await importFiles([path]);
    assert.equal(outcome.status, 'done', outcome.reason);
    assert.equal(proxy!.imports.length, 2);
    const [editor, folder] = proxy!.imports;
    assert.deepEqual(editor, folder, `editor sent ${editor.toString('utf8')}\nfolder sent ${folder.toString('utf8')}`);
    assert.equal(folder.toString('utf8'), text.slice(1), 'the text as written, CRLF and spacing kept, no BOM');
    assert.notEqual(folder[0], 0xef, 'no byte-order mark on the wire');
  });

  it('imports a file that starts with a byte-order mark from a folder (and so the demo)', async () => {
    const path = writeSpot(
      'bom.spot.json',
      BOM + JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: 'bom-file', latitude: 1, longitude: 2 } } }),
    );
    const [outcome] = await importFiles([path]);
    assert.equal(outcome.status, 'done', outcome.reason);
    assert.ok(setup!.sandbox.spotBySourceId('bom-file'));
    assert.equal(proxy!.imports[0].subarray(0, 3).toString('hex') === 'efbbbf', false);
  });

  it('refuses a member named twice, at its second occurrence, and sends nothing', async () => {
    const text = '{"data":{"type":"spots","attributes":{"topic_id":1,"source_id":"validated","latitude":1,"longitude":2,"source_id":"other"}}}';
    const parsed = parseSpotText(text);
    assert.equal(parsed.document, undefined, 'not a document to send');
    const duplicate = parsed.problems.find((problem) => problem.pointer === '/data/attributes/source_id');
    assert.ok(duplicate, JSON.stringify(parsed.problems));
    assert.equal(duplicate.offset, text.lastIndexOf('"source_id"'), 'at the second occurrence');
    assert.equal(text.slice(duplicate.offset, duplicate.offset + duplicate.length), '"source_id"');
    assert.equal(duplicate.severity, 'error');
    assert.match(duplicate.message, /source_id/);

    const inData = '{"data":{"type":"spots","attributes":{"topic_id":1,"source_id":"a","latitude":1,"longitude":2},"type":"spots"}}';
    const second = parseSpotText(inData).problems;
    assert.deepEqual(
      second.map((problem) => [problem.pointer, problem.offset]),
      [['/data/type', inData.lastIndexOf('"type"')]],
    );

    const [outcome] = await importFiles([writeSpot('twice.spot.json', text)]);
    assert.equal(outcome.status, 'invalid');
    assert.match(outcome.reason ?? '', /source_id/);
    assert.equal(proxy!.imports.length, 0, 'nothing was sent');
  });

  it('finds a member named twice in any object, even when the document is otherwise valid', () => {
    const text = '{"data":{"type":"spots","attributes":{"topic_id":1,"source_id":"a","latitude":1,"longitude":2,"fld_1_2":{"x":1,"x":1}}}}';
    const parsed = parseSpotText(text);
    assert.equal(parsed.document, undefined);
    assert.deepEqual(
      parsed.problems.map((problem) => problem.pointer),
      ['/data/attributes/fld_1_2/x'],
    );
    // The same names in different objects are not duplicates.
    assert.deepEqual(
      parseSpotText('{"data":{"type":"spots","attributes":{"topic_id":1,"source_id":"a","latitude":1,"longitude":2,"fld_1_2":{"type":1}}}}').problems,
      [],
    );
  });
});

describe('the fast path lets no repeated name through', () => {
  const tricky = [
    '{"a":"x","a":"y"}',
    '{"a":"\\"","a":1}',
    '{"k":"a",":":1,":":2}',
    '{"k":"x:","m":1}',
    '{"k" : "\\\\", "k":2}',
    '{"a\\"b":1,"a\\"b":2}',
    '{"__proto__":1,"__proto__":2}',
    '{"a":{"b":1},"c":{"b":1}}',
    '[{"a":1},{"a":1,"a":2}]',
    '{"a":"\\\\\\"","b":"\\":\\"","c":[":",":"]}',
    '{ "x" :\t\r\n 1 , "y":{ "x" : 2 } }',
    '{"a":1,"\\u0061":2}',
  ];
  for (const text of tricky) {
    it(`agrees with the positioned parse on ${JSON.stringify(text)}`, () => {
      const root = parseTree(text);
      assert.ok(root);
      assert.equal(provablyNoDuplicates(text, JSON.parse(text)), duplicateMembers(root).length === 0);
    });
  }
});

describe('syntax problems say which JSON refuses them', () => {
  // The editor leaves plain syntax errors to VS Code's JSON language service (an Error there too)
  // but reports comments and trailing commas itself in JSON with Comments, which allows them.
  const valid = '{"data":{"type":"spots","attributes":{"topic_id":1,"source_id":"a","latitude":1,"longitude":2}}}';

  it('marks a comment and a trailing comma as refused by strict JSON only', () => {
    const commented = parseSpotText(valid.replace('{"topic_id"', '{ /* note */ "topic_id"'));
    assert.deepEqual(
      commented.problems.map((problem) => problem.syntax),
      ['strict'],
    );
    const trailing = parseSpotText(valid.replace('"longitude":2}', '"longitude":2,}'));
    assert.ok(trailing.problems.length > 0 && trailing.problems.every((problem) => problem.syntax === 'strict'), JSON.stringify(trailing.problems));
  });

  it('marks a missing brace as refused by every JSON dialect, and schema problems not at all', () => {
    assert.deepEqual(
      parseSpotText(valid.slice(0, -1)).problems.map((problem) => problem.syntax),
      ['json'],
    );
    assert.deepEqual(
      parseSpotText(valid.replace('"latitude":1', '"latitude":91')).problems.map((problem) => problem.syntax),
      [undefined],
    );
  });
});
