// A name twice in one object of a topic definition (or of a mapping, read the same way) is an
// error at the second name, and the file is not used: JSON.parse, and the parser before it, kept
// the last copy silently, so a field written as required could be checked as optional.
import * as assert from 'node:assert/strict';
import { parseTopicDefinition, TOPIC_RULES, type TopicProblem } from '../../src/core/topics';
import { MAPPING_RULES, parseMapping } from '../../src/core/rows/mapping/readMapping';

function marked(text: string, problem: { offset: number; length: number }): string {
  return text.slice(problem.offset, problem.offset + problem.length);
}

/** Each problem as [rule, the characters it marks, where it marks them, message]. */
function seen(text: string, problems: TopicProblem[]): Array<[string, string, number, string]> {
  return problems.map((problem) => [problem.rule, marked(text, problem), problem.offset, problem.message]);
}

describe('names repeated in a topic definition', () => {
  it('a field defined twice is an error at the second name, and the definition is not used', () => {
    const text =
      '{"topic_id":7,"fields":{"fld_7_1":{"label":"Species","type":"category","values":{"1":"Oak"},"required":true},"fld_7_1":{"label":"Notes","type":"text"}}}';
    const parsed = parseTopicDefinition(text);
    assert.equal(parsed.definition, undefined);
    assert.deepEqual(seen(text, parsed.problems), [
      [TOPIC_RULES.definitionSchema, '"fld_7_1"', text.lastIndexOf('"fld_7_1"'), 'fld_7_1 appears more than once in fields; keep one.'],
    ]);
  });

  it('a member of the definition itself, and one of a field, each said where it is repeated', () => {
    const text = '{"topic_id":7,"topic_id":8,"fields":{"fld_7_1":{"label":"S","type":"number","required":true,"required":false}}}';
    const parsed = parseTopicDefinition(text);
    assert.equal(parsed.definition, undefined);
    assert.deepEqual(seen(text, parsed.problems), [
      [TOPIC_RULES.definitionSchema, '"topic_id"', text.lastIndexOf('"topic_id"'), 'topic_id appears more than once in a topic definition; keep one.'],
      [TOPIC_RULES.definitionSchema, '"required"', text.lastIndexOf('"required"'), 'required appears more than once in fields.fld_7_1; keep one.'],
    ]);
  });

  it('a category key given twice', () => {
    const text = '{"topic_id":7,"fields":{"fld_7_1":{"label":"S","type":"category","values":{"1":"Oak","1":"Beech"}}}}';
    const parsed = parseTopicDefinition(text);
    assert.equal(parsed.definition, undefined);
    assert.deepEqual(seen(text, parsed.problems), [
      [TOPIC_RULES.definitionSchema, '"1"', text.lastIndexOf('"1"'), '1 appears more than once in fields.fld_7_1.values; keep one.'],
    ]);
  });

  it('a mapping, read the same way, gets the same problem and is not used', () => {
    const text = '{"topic_id":7,"topic_id":8}';
    const parsed = parseMapping('m.json', text);
    assert.equal(parsed.mapping, undefined);
    const duplicate = parsed.problems.find((problem) => problem.offset === text.lastIndexOf('"topic_id"'));
    assert.deepEqual([duplicate?.rule, duplicate?.message], [MAPPING_RULES.schema, 'topic_id appears more than once in a mapping; keep one.']);
  });
});
