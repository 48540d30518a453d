// What a topic definition's schema accepts but the rest of the extension cannot work with, each a
// definition problem on its characters (the definition is then not used): a gallery field named
// otherwise than the service names them (its null would not be a pending gallery), the name
// __proto__ (dropped silently when the file is read), and an area without width or height
// (every spot would be outside it).
import * as assert from 'node:assert/strict';
import { parseTopicDefinition, TOPIC_RULES } from '../../src/core/topics';

/** Each problem of the definition as [rule, the characters it marks, message]; and whether it is used. */
function check(definition: unknown): { used: boolean; problems: string[][] } {
  const text = JSON.stringify(definition);
  const parsed = parseTopicDefinition(text);
  return {
    used: parsed.definition !== undefined,
    problems: parsed.problems.map((problem) => [problem.rule, text.slice(problem.offset, problem.offset + problem.length), problem.message]),
  };
}

describe('topic definition rules beyond the schema', () => {
  it('a gallery field named otherwise than fld_<number>_<number> is a problem on its name', () => {
    assert.deepEqual(check({ topic_id: 7, fields: { photos: { label: 'Photos', type: 'gallery', required: true } } }), {
      used: false,
      problems: [[TOPIC_RULES.definitionRule, '"photos"', 'photos cannot be a gallery field: the service names its gallery fields fld_<number>_<number>.']],
    });
    assert.deepEqual(check({ topic_id: 7, fields: { fld_7_3: { label: 'Photos', type: 'gallery' }, notes: { label: 'Notes', type: 'text' } } }), {
      used: true,
      problems: [],
    });
  });

  it('__proto__ as a field name or a category key is a problem that says it cannot be used', () => {
    const proto = JSON.parse('{"topic_id":7,"fields":{"__proto__":{"label":"P","type":"number","required":true}}}') as unknown;
    assert.deepEqual(check(proto), {
      used: false,
      problems: [
        [TOPIC_RULES.definitionRule, '"__proto__"', '__proto__ cannot be used as a name in a topic definition: it would be dropped when the file is read.'],
      ],
    });
    const key = JSON.parse('{"topic_id":7,"fields":{"fld_7_1":{"label":"S","type":"category","values":{"1":"Oak","__proto__":"Beech"}}}}') as unknown;
    assert.deepEqual(check(key), {
      used: false,
      problems: [
        [TOPIC_RULES.definitionRule, '"__proto__"', '__proto__ cannot be used as a name in a topic definition: it would be dropped when the file is read.'],
      ],
    });
  });

  it('an area without width or height is a problem; the thinnest real one is not', () => {
    const area = (bbox: number[]) => check({ topic_id: 7, area: { bbox }, fields: {} });
    assert.deepEqual(area([10, 10, 10, 10]), {
      used: false,
      problems: [
        [TOPIC_RULES.definitionRule, '10', "The bbox's west and east are the same meridian (10 and 10): the area has no width."],
        [TOPIC_RULES.definitionRule, '10', "The bbox's south and north are both 10: the area has no height."],
      ],
    });
    assert.deepEqual(area([180, 46.3, -180, 49.1]).problems, [
      [TOPIC_RULES.definitionRule, '-180', "The bbox's west and east are the same meridian (180 and -180): the area has no width."],
    ]);
    assert.deepEqual(area([9.5, 46.3, 9.5000001, 46.3000001]), { used: true, problems: [] });
    assert.deepEqual(area([-180, 46.3, 180, 49.1]), { used: true, problems: [] });
  });
});
