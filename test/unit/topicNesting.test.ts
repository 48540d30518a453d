// A topic definition file that nests arrays and objects thousands of levels deep is one broken
// file with one clear problem, by the same depth check as spot documents (nesting.ts): never a
// stack overflow out of the walks over its value, which took the whole folder of definitions
// (and with it a command-line run, or the editor's topic checks) down with it. Its rule is
// topicDefinition.rule: the definition's JSON Schema cannot say how deep is too deep, so the
// editor shows it itself.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_JSON_DEPTH } from '../../src/core/documents/nesting';
import { collectTopicDefinitions, loadTopicFolder, parseTopicDefinition, TOPIC_RULES } from '../../src/core/topics';

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
/** Topic 9 with one field whose `values` nests `levels` arrays deep. */
const deepDefinition = (levels: number) => `{"topic_id": 9, "fields": {"fld_9_1": {"label": "Deep", "type": "category", "values": ${deepArray(levels)}}}}`;
const TOO_DEEP = `The definition nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; a topic definition needs only a few.`;

describe('topic definitions nested too deeply', () => {
  for (const levels of [3000, 100_000]) {
    it(`a definition nested ${levels} levels deep is refused with one problem, placed on the first bracket too deep`, () => {
      const text = deepDefinition(levels);
      const parsed = parseTopicDefinition(text);
      assert.equal(parsed.definition, undefined);
      assert.deepEqual(
        parsed.problems.map((problem) => [problem.rule, problem.severity, problem.message]),
        [[TOPIC_RULES.definitionRule, 'error', TOO_DEEP]],
      );
      // The definition is level 1, fields 2, the field 3: its values' arrays start at level 4.
      assert.equal(parsed.problems[0].offset, text.indexOf('[') + MAX_JSON_DEPTH - 3);
      assert.equal(parsed.problems[0].pointer, '/fields/fld_9_1/values' + '/0'.repeat(MAX_JSON_DEPTH - 3));
    });
  }

  it('deep nesting the JSON never closes is the same one problem', () => {
    assert.deepEqual(
      parseTopicDefinition('['.repeat(100_000)).problems.map((problem) => problem.message),
      [TOO_DEEP],
    );
  });

  it('64 levels are still read (and judged by the schema as usual)', () => {
    const parsed = parseTopicDefinition(deepDefinition(MAX_JSON_DEPTH - 3));
    assert.ok(
      parsed.problems.length > 0 && parsed.problems.every((problem) => problem.message !== TOO_DEEP),
      JSON.stringify(parsed.problems.map((problem) => problem.message)),
    );
  });

  it('the other definitions of the folder stay in use', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'spot-topics-deep-'));
    try {
      writeFileSync(join(folder, '7.topic.json'), JSON.stringify({ topic_id: 7, fields: { fld_7_1: { label: 'Height', type: 'number' } } }));
      writeFileSync(join(folder, '9.topic.json'), deepDefinition(3000));
      const set = await loadTopicFolder(folder);
      assert.deepEqual([...set.catalog.keys()], [7]);
      assert.deepEqual(
        set.files.map((file) => [file.path.replace(/^.*[\\/]/, ''), file.problems.map((problem) => problem.message)]),
        [
          ['7.topic.json', []],
          ['9.topic.json', [TOO_DEEP]],
        ],
      );
      // What the editor's topic store calls with the texts it read.
      assert.deepEqual(
        [
          ...collectTopicDefinitions([
            { path: 'b.topic.json', text: deepDefinition(3000) },
            { path: 'a.topic.json', text: '{"topic_id": 7, "fields": {}}' },
          ]).catalog.keys(),
        ],
        [7],
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
