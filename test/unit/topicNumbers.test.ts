// Numbers a JSON reader cannot hold as written: 1e400 reads as Infinity and 9007199254740993 as
// 9007199254740992, so a range check on what was read passed them while the document's own
// digits were what would be sent. Each is now a problem at its member.
import * as assert from 'node:assert/strict';
import { checkSpotAgainstTopic, parseTopicDefinition, TOPIC_RULES, type TopicCatalog } from '../../src/core/topics';

const definition = parseTopicDefinition(
  JSON.stringify({
    topic_id: 9,
    name: 'Counts',
    fields: {
      fld_9_1: { label: 'Height', type: 'number', minimum: 0 },
      fld_9_2: { label: 'Trees', type: 'integer', minimum: 1 },
      fld_9_3: { label: 'Photos', type: 'gallery' },
      fld_9_4: { label: 'Class', type: 'category', values: { '12345678901234567000': 'Big', '2': 'Small' } },
    },
  }),
).definition!;
const catalog: TopicCatalog = new Map([[9, definition]]);

/** The problems of a document whose member `name` is written `literal` (as the author typed it). */
function problemsOf(name: string, literal: string) {
  const text = `{"data":{"type":"spots","attributes":{"topic_id":9,"source_id":"n","latitude":47.1,"longitude":15.4,"state":2,"${name}":${literal}}}}`;
  return checkSpotAgainstTopic(text, catalog).map((problem) => ({
    rule: problem.rule,
    message: problem.message,
    marks: text.slice(problem.offset, problem.offset + problem.length),
  }));
}

describe('topic rules: numbers beyond what is read exactly', () => {
  it('a number beyond the largest a double holds is out of range, not valid', () => {
    for (const literal of ['1e400', '-1e400']) {
      const [problem, ...rest] = problemsOf('fld_9_1', literal);
      assert.equal(rest.length, 0);
      assert.deepEqual([problem?.rule, problem?.marks], [TOPIC_RULES.outOfRange, literal]);
      assert.match(
        problem.message,
        literal.startsWith('-')
          ? /Height \(fld_9_1\) is below the smallest number that can be stored/
          : /Height \(fld_9_1\) is beyond the largest number that can be stored/,
      );
    }
    assert.deepEqual(problemsOf('fld_9_1', '1e300'), []);
  });

  it('a whole number beyond 2^53 - 1 is out of range for an integer field and as a gallery id', () => {
    const [integer] = problemsOf('fld_9_2', '9007199254740993');
    assert.equal(integer?.rule, TOPIC_RULES.outOfRange);
    assert.match(integer.message, /Trees \(fld_9_2\) is a whole number beyond 9007199254740991, which cannot be sent exactly/);
    assert.deepEqual(problemsOf('fld_9_2', '9007199254740991'), []);
    const [gallery] = problemsOf('fld_9_3', '1e20');
    assert.equal(gallery?.rule, TOPIC_RULES.invalidGallery);
    assert.deepEqual(problemsOf('fld_9_3', '200001'), []);
  });

  it('a category key is not matched by a number that reads as it only after rounding', () => {
    const [problem] = problemsOf('fld_9_4', '12345678901234567890');
    assert.equal(problem?.rule, TOPIC_RULES.unknownCategory);
    // Not the rounded number, which would quote another key.
    assert.match(problem.message, /^Class \(fld_9_4\): a whole number this large cannot be read exactly; write the key as a text, in quotes\.$/);
    assert.deepEqual(problemsOf('fld_9_4', '2'), []);
    assert.deepEqual(problemsOf('fld_9_4', '"12345678901234567000"'), []);
  });
});
