// A document of tens of thousands of members its topic does not define, against thousands of
// fields: each undefined member was compared with every field for a "Did you mean …?", which took
// minutes (60,000 members against 3,000 fields: over 380 s; the editor checks as it is typed).
// The first 200 get a guess; the rest are said without one.
import * as assert from 'node:assert/strict';
import { checkSpotAgainstTopic, parseTopicDefinition, TOPIC_RULES } from '../../src/core/topics';

describe('topic rules: many members the topic does not define', () => {
  it('guesses what the first 200 meant, and says the others without a guess', () => {
    const fields = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`fld_8_${i + 1}`, { label: `Field ${i + 1}`, type: 'text' }]));
    const definition = parseTopicDefinition(JSON.stringify({ topic_id: 8, name: 'Many', fields })).definition!;
    // Each a typing error of one field: "fd_8_12" for fld_8_12.
    const attributes = {
      topic_id: 8,
      source_id: 'm',
      latitude: 47,
      longitude: 15,
      ...Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`fd_8_${i + 1}`, 1])),
    };
    const problems = checkSpotAgainstTopic(JSON.stringify({ data: { type: 'spots', attributes } }), new Map([[8, definition]])).filter(
      (problem) => problem.rule === TOPIC_RULES.undefinedField,
    );
    assert.equal(problems.length, 250);
    assert.equal(problems.filter((problem) => /Did you mean/.test(problem.message)).length, 200);
    assert.match(problems[0].message, /^fd_8_1 is not a field of .*Did you mean Field 1 \(fld_8_1\)\?$/);
    assert.match(problems[249].message, /^fd_8_250 is not a field of .*; it is still sent\.$/);
  });
});
