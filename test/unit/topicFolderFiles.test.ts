// How the files of a topics folder are read: a link is followed, as the editor follows it; a
// link to nothing, a folder named like a definition, a file too large or not UTF-8 is a problem on
// that file alone, and the other definitions stay in use; the bytes are decoded as spot documents'
// are (strict UTF-8, a byte-order mark allowed), so the same file gets the same words.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTopicFolder, TOPIC_RULES, type TopicFileReport } from '../../src/core/topics';
import { MAX_DEFINITION_BYTES } from '../../src/core/documents/readDocument';

const definition = (topicId: number) => JSON.stringify({ topic_id: topicId, fields: { [`fld_${topicId}_1`]: { label: 'S', type: 'text', required: true } } });

describe('reading the files of a topics folder', () => {
  let dir: string;
  let folder: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spot-topic-files-'));
    folder = join(dir, 'spot-topics');
    mkdirSync(folder);
    writeFileSync(join(folder, '1.topic.json'), definition(1));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The folder's reports by file name: [rule, message] of each problem, and whether the definition is used. */
  async function load(): Promise<{ topics: number[]; files: Record<string, { used: boolean; problems: string[][] }> }> {
    const set = await loadTopicFolder(folder);
    const files: Record<string, { used: boolean; problems: string[][] }> = {};
    for (const file of set.files as TopicFileReport[])
      files[file.path.slice(folder.length + 1)] = {
        used: file.definition !== undefined,
        problems: file.problems.map((problem) => [problem.rule, problem.message]),
      };
    return { topics: [...set.catalog.keys()].sort((a, b) => a - b), files };
  }

  it('follows a link to a definition elsewhere', async () => {
    mkdirSync(join(dir, 'shared'));
    writeFileSync(join(dir, 'shared/seven.topic.json'), definition(7));
    symlinkSync('../shared/seven.topic.json', join(folder, 'seven.topic.json'));
    const { topics, files } = await load();
    assert.deepEqual(topics, [1, 7]);
    assert.deepEqual(files['seven.topic.json'], { used: true, problems: [] });
  });

  it('says a link to nothing and a folder named like a definition on their own paths; the others stay in use', async () => {
    symlinkSync('../nowhere.topic.json', join(folder, 'gone.topic.json'));
    mkdirSync(join(folder, 'folder.topic.json'));
    const { topics, files } = await load();
    assert.deepEqual(topics, [1]);
    assert.deepEqual(files['gone.topic.json'], {
      used: false,
      problems: [[TOPIC_RULES.definitionUnreadable, 'Could not read the file: it is a link to ../nowhere.topic.json, which does not exist']],
    });
    assert.deepEqual(files['folder.topic.json'], { used: false, problems: [[TOPIC_RULES.definitionUnreadable, 'Could not read the file: it is not a file']] });
  });

  it('refuses a file larger than a definition can be unread, on that file alone', async () => {
    writeFileSync(join(folder, 'giant.topic.json'), '');
    truncateSync(join(folder, 'giant.topic.json'), 600 * 1024 * 1024);
    const { topics, files } = await load();
    assert.deepEqual(topics, [1]);
    assert.deepEqual(files['giant.topic.json'], {
      used: false,
      problems: [
        [
          TOPIC_RULES.definitionUnreadable,
          `Could not read the file: it is 600 MiB, larger than a topic definition can be (${MAX_DEFINITION_BYTES / 1048576} MiB)`,
        ],
      ],
    });
  });

  it('reads a definition with a byte-order mark, its problems placed in the text without it', async () => {
    writeFileSync(join(folder, 'bom.topic.json'), '\uFEFF' + definition(2));
    writeFileSync(join(folder, 'bom-broken.topic.json'), '\uFEFF{"topic_id":"3","fields":{}}');
    const set = await loadTopicFolder(folder);
    assert.deepEqual([...set.catalog.keys()].sort(), [1, 2]);
    const broken = set.files.find((file) => file.path.endsWith('bom-broken.topic.json'))!;
    assert.deepEqual(
      broken.problems.map((problem) => [problem.message, problem.offset, problem.length]),
      [['topic_id must be a number.', '{"topic_id":'.length, 3]],
    );
  });

  it('refuses UTF-16 and Latin-1 with the words spot documents get: save it as UTF-8', async () => {
    writeFileSync(join(folder, 'u16.topic.json'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(definition(4), 'utf16le')]));
    // Without a byte-order mark every other byte is a zero, which is UTF-8, though never in JSON.
    writeFileSync(join(folder, 'u16le.topic.json'), Buffer.from(definition(6), 'utf16le'));
    writeFileSync(join(folder, 'latin1.topic.json'), Buffer.from(definition(5).replace('"S"', '"Eiche, Buche, Kiefer\n\u00e9"'), 'latin1'));
    const { topics, files } = await load();
    assert.deepEqual(topics, [1]);
    const notUtf8 = (line: number) => [
      TOPIC_RULES.definitionUnreadable,
      `Could not read the file: it is not UTF-8 text: save it as UTF-8 and run again (the first byte that is not UTF-8 is on line ${line})`,
    ];
    assert.deepEqual(files['u16.topic.json'], { used: false, problems: [notUtf8(1)] });
    assert.deepEqual(files['latin1.topic.json'], { used: false, problems: [notUtf8(2)] });
    assert.deepEqual(files['u16le.topic.json'], {
      used: false,
      problems: [
        [
          TOPIC_RULES.definitionUnreadable,
          'Could not read the file: it holds zero bytes, as UTF-16 text does: save it as UTF-8 and run again (the first is on line 1)',
        ],
      ],
    });
  });
});
