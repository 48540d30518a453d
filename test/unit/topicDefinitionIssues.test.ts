// A definition with tens of thousands of schema problems (a list of categories whose labels are
// numbers) is reported in a moment, not minutes: the first 100 problems, then how many more there
// are. Each problem was worded by rebuilding the file's whole value, 19 s for 20,000 of them.
import * as assert from 'node:assert/strict';
import { parseTopicDefinition, TOPIC_RULES } from '../../src/core/topics';

/** Topic 7 with one category field of `count` values, each a number where a label (text) goes. */
function numberedLabels(count: number): string {
  const values = Object.fromEntries(Array.from({ length: count }, (_, index) => [String(index), index]));
  return JSON.stringify({ topic_id: 7, fields: { fld_7_1: { label: 'S', type: 'category', values } } });
}

describe('a topic definition with very many problems', () => {
  it('reports 20,000 problems as the first 100 and how many more, in well under a second or two', () => {
    const text = numberedLabels(20_000);
    const started = performance.now();
    const parsed = parseTopicDefinition(text);
    const elapsed = performance.now() - started;
    assert.equal(parsed.definition, undefined);
    assert.equal(parsed.problems.length, 101);
    assert.deepEqual(
      parsed.problems.slice(0, 2).map((problem) => [problem.rule, text.slice(problem.offset, problem.offset + problem.length), problem.message]),
      [
        [TOPIC_RULES.definitionSchema, '0', 'fields.fld_7_1.values.0 must be a text.'],
        [TOPIC_RULES.definitionSchema, '1', 'fields.fld_7_1.values.1 must be a text.'],
      ],
    );
    assert.equal(parsed.problems[99].message, 'fields.fld_7_1.values.99 must be a text.');
    assert.deepEqual(
      [parsed.problems[100].rule, parsed.problems[100].offset, parsed.problems[100].message],
      [TOPIC_RULES.definitionSchema, 0, '19900 more problems of this file are not listed.'],
    );
    assert.ok(elapsed < 2000, `${Math.round(elapsed)} ms`);
  });

  it('lists 100 problems and no more, with no count after them', () => {
    const parsed = parseTopicDefinition(numberedLabels(100));
    assert.equal(parsed.problems.length, 100);
    assert.equal(parsed.problems[99].message, 'fields.fld_7_1.values.99 must be a text.');
  });
});
