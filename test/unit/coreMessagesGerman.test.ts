// The core's messages in German where the extension shows them: with VS Code's German bundle handed
// over (useMessageBundle, as activate() does), a problem of the core reads in German; without one
// (the command line) in English. Bounds zod words itself are worded by the core, so they translate.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatSeconds } from '../../src/core/api/deadline';
import { formatBytes } from '../../src/core/mediaFiles/downloadMedia';
import { positionSwappedMessage } from '../../src/core/rows/mapping/positionOrder';
import { parseMapping } from '../../src/core/rows/mapping/readMapping';
import { rowLabel, rowLabels } from '../../src/core/rows/rowSource';
import { useMessageBundle, type MessageBundle } from '../../src/core/text/l10n';

const german = JSON.parse(readFileSync(join(__dirname, '../../../l10n/bundle.l10n.de.json'), 'utf8')) as MessageBundle;
const mapping = JSON.stringify({ source: { header: 0 }, topic_id: 7, source_id: '{id}', latitude: 'lat', longitude: 'lon' });
const messages = () => parseMapping('/tmp/trees.mapping.json', mapping).problems.map((problem) => problem.message);

describe("the core's messages in the extension's language", () => {
  afterEach(() => useMessageBundle(undefined));

  it('words a bound zod checks without a message of ours, in English without a bundle', () => {
    assert.deepEqual(messages(), ['source.header must be at least 1.']);
  });

  it('reads in German once the German bundle is handed over, and in English again without it', () => {
    useMessageBundle(german);
    assert.deepEqual(messages(), ['source.header muss mindestens 1 sein.']);
    useMessageBundle(undefined);
    assert.deepEqual(messages(), ['source.header must be at least 1.']);
  });

  it('names a row of a table the same, made once for the table or for each row, in English and German', () => {
    const names = () =>
      ['/data/trees.csv', '/data/$&$1 Bäume (2026).csv', 'C:\\Daten\\row {1}.csv'].flatMap((source) => {
        const labels = rowLabels(source);
        return [
          [1, 2],
          [12, 14],
          [100000, 100007],
        ].map(([row, line]) => [labels(row, line), rowLabel(source, row, line)]);
      });
    for (const [once, each] of names()) assert.equal(once, each);
    assert.equal(names()[0][0], 'trees.csv row 1 (line 2)');
    useMessageBundle(german);
    for (const [once, each] of names()) assert.equal(once, each);
    assert.notEqual(names()[0][0], 'trees.csv row 1 (line 2)', 'German words');
  });

  it('writes numbers with the decimal comma in German, and as before in English and without a language', () => {
    const words = () => [formatBytes(1.5 * 1024 * 1024), formatBytes(12.5 * 1024 * 1024), formatSeconds(800), formatSeconds(30_000)];
    assert.deepEqual(words(), ['1.5 MB', '13 MB', '0.8', '30']);
    useMessageBundle(german, 'de');
    assert.deepEqual(words(), ['1,5 MB', '13 MB', '0,8', '30']);
    useMessageBundle(german);
    assert.deepEqual(words(), ['1.5 MB', '13 MB', '0.8', '30'], 'no language given: English numbers');
    useMessageBundle(undefined, 'de');
    assert.deepEqual(words(), ['1.5 MB', '13 MB', '0.8', '30'], 'no bundle (the command line): English, whatever the language');
  });

  it('says which number a position cell writes first in German words, both ways round', () => {
    useMessageBundle(german);
    for (const order of ['latitude-longitude', 'longitude-latitude'] as const) {
      const message = positionSwappedMessage('95.1 16.3', 'Fundort', order);
      assert.doesNotMatch(message.replace(/"position": .*$/, ''), /latitude|longitude/, message);
      assert.match(message, /Breite/);
      assert.match(message, /Länge/);
    }
  });
});
