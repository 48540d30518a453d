import * as assert from 'node:assert/strict';
import { LogLines, namesOfLine } from '../../src/core/journal/recordLog';
import { JOURNAL_FORMAT, spotJournalSchema, type SpotJournalRecord } from '../../src/core/journal/journalRecord';

// When a log is opened, each line is only looked at for the source id it belongs to and the
// galleries it names; the lines of spots without galleries (every line of a document-only import)
// are read without parsing them. Whatever the shortcut, the answer must be the full parse's, for
// lines as the journal writes them (new records, records read back), lines cut off anywhere,
// lines edited by hand, and lines a power cut damaged.
describe('media journal: what a line of the log names when the log is opened', () => {
  /** The full parse, as every line was read before the shortcut. */
  function parsedWhole(line: string): { sourceId: string; galleryIds: number[] } | undefined {
    try {
      const value = JSON.parse(line) as { sourceId?: unknown; galleries?: unknown };
      if (typeof value?.sourceId !== 'string') return undefined;
      const galleries = value.galleries && typeof value.galleries === 'object' ? Object.values(value.galleries as Record<string, { galleryId?: unknown }>) : [];
      return { sourceId: value.sourceId, galleryIds: galleries.map((gallery) => gallery?.galleryId).filter((id): id is number => typeof id === 'number') };
    } catch {
      const named = /"sourceId":("(?:[^"\\]|\\.)*")/.exec(line);
      if (!named) return undefined;
      try {
        return { sourceId: JSON.parse(named[1]) as string, galleryIds: [] };
      } catch {
        return undefined;
      }
    }
  }

  const fresh = (sourceId: string, extra: Partial<SpotJournalRecord> = {}): SpotJournalRecord => ({
    format: JOURNAL_FORMAT,
    service: 'http://127.0.0.1:4100',
    clientId: 'topic_1_api',
    sourceId,
    galleries: {},
    updatedAt: '2026-11-26T10:00:00.000Z',
    ...extra,
  });
  const done = (record: SpotJournalRecord): SpotJournalRecord => ({
    ...record,
    document: 'C:\\spots\\"odd".spot.json',
    spotId: 12,
    finalImport: { sha256: 'ab'.repeat(32), state: 1, at: '2026-11-26T10:00:01.000Z' },
    files: {},
  });
  const withGallery = (record: SpotJournalRecord): SpotJournalRecord => ({
    ...record,
    galleries: { fld_1_3: { galleryId: 77, origin: 'created', media: { 'sha256:aa:3': { mediaId: 5, file: 'a.jpg', how: 'reply' } } } },
  });

  const sourceIds = ['plain-1', 'with "quotes"', 'back\\slash', 'ünïcödé 🌳', 'tab\there', 'nul\u0000byte', 'line\u2028sep', '', 'sourceId":"trick'];
  const records: SpotJournalRecord[] = sourceIds.flatMap((id) => [fresh(id), done(fresh(id)), withGallery(done(fresh(id)))]);
  // As written by a run: new records in the order fresh() makes them, and records read back (zod's order).
  const written = records.flatMap((record) => [JSON.stringify(record), JSON.stringify(spotJournalSchema.parse(record))]);
  const edited = [
    '{"format":1,"service":"s","clientId":"c","sourceId":"a","galleries":{},"sourceId":"b"}',
    '{"format":1,"service":"s","clientId":"c","sourceId":"a","galleries":{"fld_1_3":{"galler\\u0079Id":9}}}',
    '{"format":1,"service":"s","clientId":"c","source\\u0049d":"x","sourceId":"a"}',
    '{"format":1,"service":"s","clientId":"c","sourceId":"a\\u0062"}',
    '{"format":1e0,"service":"s","clientId":"c","sourceId":"a"}',
    '{"format":"1","service":"s","clientId":"c","sourceId":"a"}',
    '{"format":1,"clientId":"c","service":"s","sourceId":"a"}',
    '{"format":1,"service":"s","clientId":"c","sourceId":5}',
    '{"format":1,"service":"s\\"","clientId":"c","sourceId":"a"}',
    '{"format":1,"service":"s","clientId":"c","sourceId":"a","galleries":{"x":{"galleryId":"7"}}}',
    '{"format":1,"service":"s","clientId":"c","sourceId":"a"',
    '{"format":1,"service":"s","clientId":"c","sourceId":"a"}}',
    '{"format":1,"service":"s","clientId":"c","sourceId":"a",}',
    '{"format":1,"service":"s","clientId":"c","sourceId":"a\u0001b"}',
    '\u0000\u0000{"format":1,"service":"s","clientId":"c","sourceId":"a"}',
    '[{"format":1,"service":"s","clientId":"c","sourceId":"a"}]',
    '{"format":1,"service":"s","clientId":"c"}',
    '',
    'not json at all "sourceId":"z"',
  ];
  // Every line cut off after each of its characters: what a kill or power cut leaves.
  const cut = written.slice(0, 12).flatMap((line) => Array.from({ length: line.length }, (_, end) => line.slice(0, end)));

  it('names the same source id and galleries as parsing the line whole', () => {
    const lines = [...written, ...edited, ...cut];
    const differing = lines.filter((line) => JSON.stringify(namesOfLine(line)) !== JSON.stringify(parsedWhole(line)));
    assert.deepEqual(differing, []);
    assert.ok(lines.length > 1000, `${lines.length} lines compared`);
  });

  it('names the same from the bytes of a whole log, read line by line as the log is opened', () => {
    const lines = [...written, ...edited, ...cut];
    // In this order, reversed, and each line alone: where a pattern that sends a line to the full
    // parse was found for one line must not answer wrongly for the lines after it.
    for (const order of [lines, [...lines].reverse()]) {
      const data = Buffer.from(order.map((line) => `${line}\n`).join(''));
      const reader = new LogLines(data);
      const differing: string[] = [];
      let at = 0;
      for (const line of order) {
        const end = at + Buffer.byteLength(line);
        if (JSON.stringify(reader.names(at, end)) !== JSON.stringify(parsedWhole(line))) differing.push(line);
        at = end + 1;
      }
      assert.equal(at, data.length);
      assert.deepEqual(differing, []);
    }
    const alone = lines.filter(
      (line) => JSON.stringify(new LogLines(Buffer.from(line)).names(0, Buffer.byteLength(line))) !== JSON.stringify(parsedWhole(line)),
    );
    assert.deepEqual(alone, []);
  });

  it('names the same from bytes that are not valid UTF-8, a byte-order mark, or a line cut inside a character', () => {
    const plain = (sourceIdBytes: Buffer) =>
      Buffer.concat([Buffer.from('{"format":1,"service":"s","clientId":"c","sourceId":"'), sourceIdBytes, Buffer.from('","galleries":{}}')]);
    const lines = [
      plain(Buffer.from([0xc3])),
      plain(Buffer.from([0xf0, 0x9f, 0x98])),
      plain(Buffer.from([0xed, 0xa0, 0x80])),
      plain(Buffer.from([0xff, 0x41])),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), plain(Buffer.from('bom'))]),
      ...Array.from({ length: 12 }, (_, end) => plain(Buffer.from('ünïcödé 🌳')).subarray(0, 52 + end)),
    ];
    const data = Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\n')]));
    const reader = new LogLines(data);
    let at = 0;
    const differing: string[] = [];
    for (const line of lines) {
      const text = line.toString('utf8');
      if (JSON.stringify(reader.names(at, at + line.length)) !== JSON.stringify(parsedWhole(text))) differing.push(text);
      at += line.length + 1;
    }
    assert.deepEqual(differing, []);
    assert.equal(reader.names(0, lines[0].length)?.sourceId, '\ufffd', 'read from its bytes, as decoding the line gives it');
  });

  it('reads the usual line of a document-only import without a gallery, and names the galleries of a spot with media', () => {
    assert.deepEqual(namesOfLine(JSON.stringify(done(fresh('x-1')))), { sourceId: 'x-1', galleryIds: [] });
    assert.deepEqual(namesOfLine(JSON.stringify(withGallery(fresh('x-2')))), { sourceId: 'x-2', galleryIds: [77] });
  });
});
