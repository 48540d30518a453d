// The topic rules on a document: every field type on valid and invalid values, the problem's
// rule, severity and exact characters, and the did-you-mean rule that applies to every document.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTree } from 'jsonc-parser';
import { checkSpotAgainstTopic, parseTopicDefinition, TOPIC_RULES, type TopicCatalog, type TopicDefinition, type TopicProblem } from '../../src/core/topics';
import { pendingGalleryFields } from '../../src/core/api/spotSchema';

const fixtures = join(__dirname, '../../../test/fixtures/topics/project');
const read = (...parts: string[]) => readFileSync(join(fixtures, ...parts), 'utf8');

function definition(name: string): TopicDefinition {
  const parsed = parseTopicDefinition(read('spot-topics', name));
  assert.deepEqual(parsed.problems, []);
  return parsed.definition!;
}

const trail = definition('7.topic.json');
const catalog: TopicCatalog = new Map([
  [7, trail],
  [8, definition('8.topic.json')],
]);

/** A document of topic 7 with the given extra members, pretty-printed like an author's file. */
function spotText(extra: Record<string, unknown>, topicId = 7): string {
  const attributes = { topic_id: topicId, source_id: 's-1', latitude: 47.2, longitude: 11.4, state: 2, fld_7_1: 1, ...extra };
  return JSON.stringify({ data: { type: 'spots', attributes } }, null, 2);
}

function markedText(text: string, problem: TopicProblem): string {
  return text.slice(problem.offset, problem.offset + problem.length);
}

describe('topic rules', () => {
  const cases: Array<{ field: string; value: unknown; rule?: string; marks?: string; message?: RegExp }> = [
    { field: 'fld_7_4', value: 'Short note.' },
    { field: 'fld_7_4', value: 'x'.repeat(500) },
    { field: 'fld_7_4', value: 'x'.repeat(501), rule: TOPIC_RULES.tooLong, message: /Notes \(fld_7_4\) is 501 characters long; at most 500/ },
    // Characters, not UTF-16 units: 500 trees are 1000 units and still allowed.
    { field: 'fld_7_4', value: '🌳'.repeat(500) },
    { field: 'fld_7_4', value: '🌳'.repeat(501), rule: TOPIC_RULES.tooLong, message: /is 501 characters long/ },
    { field: 'fld_7_4', value: 12, rule: TOPIC_RULES.wrongType, marks: '12', message: /must be a text; it is the number 12/ },
    { field: 'fld_7_2', value: 0 },
    { field: 'fld_7_2', value: 119.5 },
    { field: 'fld_7_2', value: 120.5, rule: TOPIC_RULES.outOfRange, message: /between 0 and 120; it is 120.5/ },
    { field: 'fld_7_2', value: -1, rule: TOPIC_RULES.outOfRange },
    { field: 'fld_7_2', value: '12', rule: TOPIC_RULES.wrongType, marks: '"12"' },
    { field: 'fld_7_6', value: 7 },
    { field: 'fld_7_6', value: 7.5, rule: TOPIC_RULES.wrongType, message: /must be a whole number/ },
    { field: 'fld_7_6', value: 0, rule: TOPIC_RULES.outOfRange, message: /between 1 and 1000/ },
    { field: 'fld_7_7', value: false },
    { field: 'fld_7_7', value: 1, rule: TOPIC_RULES.wrongType, message: /true or false/ },
    { field: 'fld_7_8', value: '2024-02-29' },
    { field: 'fld_7_8', value: '2023-02-29', rule: TOPIC_RULES.wrongType, message: /: 2023-02-29 is no day of the calendar\./ },
    { field: 'fld_7_8', value: '31.05.2024', rule: TOPIC_RULES.wrongType },
    { field: 'spotted_at', value: '2024-05-31 23:59:59' },
    { field: 'spotted_at', value: '2024-05-31T14:30:00', rule: TOPIC_RULES.wrongType, message: /"YYYY-MM-DD HH:MM:SS"/ },
    { field: 'spotted_at', value: '2024-05-31 24:00:00', rule: TOPIC_RULES.wrongType, message: /is no moment of the calendar/ },
    { field: 'fld_7_1', value: 2 },
    { field: 'fld_7_1', value: '3' },
    {
      field: 'fld_7_1',
      value: 4,
      rule: TOPIC_RULES.unknownCategory,
      marks: '4',
      message: /4 is not a key of Species \(fld_7_1\); allowed: 1 \(Oak\), 2 \(Beech\), 3 \(Larch\)/,
    },
    {
      field: 'fld_7_1',
      value: 'Beech',
      rule: TOPIC_RULES.categoryLabel,
      marks: '"Beech"',
      message: /"Beech" is the label of key 2 of Species \(fld_7_1\): send the key, 2/,
    },
    { field: 'fld_7_1', value: ' oak ', rule: TOPIC_RULES.categoryLabel, message: /key 1/ },
    { field: 'fld_7_1', value: [1], rule: TOPIC_RULES.wrongType, marks: '[' },
    { field: 'fld_7_9', value: [] },
    { field: 'fld_7_9', value: ['drought', 'storm'] },
    { field: 'fld_7_9', value: ['storm', 'Bark beetles'], rule: TOPIC_RULES.categoryLabel, marks: '"Bark beetles"', message: /send the key, "beetle"/ },
    { field: 'fld_7_9', value: ['storm', 'hail'], rule: TOPIC_RULES.unknownCategory, marks: '"hail"' },
    { field: 'fld_7_9', value: 'storm', rule: TOPIC_RULES.wrongType, marks: '"storm"', message: /an array of keys/ },
    { field: 'fld_7_9', value: [true], rule: TOPIC_RULES.wrongType, marks: 'true' },
    { field: 'fld_7_3', value: null },
    { field: 'fld_7_3', value: 42 },
    {
      field: 'fld_7_3',
      value: 'pending',
      rule: TOPIC_RULES.invalidGallery,
      marks: '"pending"',
      message: /null while its media are pending, else a gallery id/,
    },
    { field: 'fld_7_3', value: 0, rule: TOPIC_RULES.invalidGallery },
    { field: 'fld_7_3', value: 4.5, rule: TOPIC_RULES.invalidGallery },
    // null on an optional field that is not a gallery: no value, nothing to check.
    { field: 'fld_7_4', value: null },
  ];
  for (const { field, value, rule, marks, message } of cases) {
    const valueText = JSON.stringify(value).slice(0, 30);
    it(`${field} (${trail.fields[field].type}) = ${valueText}: ${rule ?? 'valid'}`, () => {
      const text = spotText({ [field]: value });
      const problems = checkSpotAgainstTopic(text, catalog);
      if (!rule) return assert.deepEqual(problems, []);
      assert.equal(problems.length, 1, problems.map((p) => p.message).join('\n'));
      const [problem] = problems;
      assert.equal(problem.rule, rule);
      assert.equal(problem.severity, 'error');
      assert.ok(problem.pointer.startsWith(`/data/attributes/${field}`), problem.pointer);
      assert.equal(markedText(text, problem), marks ?? JSON.stringify(value, null, 2).split('\n')[0]);
      if (message) assert.match(problem.message, message);
    });
  }

  it('reports a missing required field on "attributes", and a required field that is null at its value', () => {
    const text = spotText({ fld_7_1: undefined });
    const [missing, ...others] = checkSpotAgainstTopic(text, catalog);
    assert.deepEqual(others, []);
    assert.equal(missing.rule, TOPIC_RULES.requiredMissing);
    assert.equal(markedText(text, missing), '"attributes"');
    assert.match(missing.message, /Species \(fld_7_1\) is required by topic 7 \(Trail observations\)/);
    const nullText = spotText({ fld_7_1: null });
    const [isNull] = checkSpotAgainstTopic(nullText, catalog);
    assert.equal(isNull.rule, TOPIC_RULES.requiredMissing);
    assert.equal(markedText(nullText, isNull), 'null');
  });

  it('warns about a member the topic does not define, on its name, and suggests a close one', () => {
    const text = spotText({ fld_7_44: 'x', spoted_at: '2024-05-31 14:30:00' });
    const problems = checkSpotAgainstTopic(text, catalog);
    assert.deepEqual(
      problems.map((p) => [p.rule, p.severity, markedText(text, p)]),
      [
        [TOPIC_RULES.undefinedField, 'warning', '"fld_7_44"'],
        [TOPIC_RULES.undefinedField, 'warning', '"spoted_at"'],
      ],
    );
    assert.match(problems[0].message, /fld_7_44 is not a field of topic 7 \(Trail observations\); it is still sent\. Did you mean Notes \(fld_7_4\)\?/);
    assert.match(problems[1].message, /Did you mean Observed at \(spotted_at\)\?/);
  });

  it('checks the whole fixture with problems: one problem per mistake, each on its characters', () => {
    const text = read('spots', 'problems.spot.json');
    const problems = checkSpotAgainstTopic(text, catalog);
    assert.deepEqual(
      problems.map((p) => `${p.rule} ${p.severity} ${markedText(text, p)}`).sort(),
      [
        `${TOPIC_RULES.categoryLabel} error "Oak"`,
        `${TOPIC_RULES.invalidGallery} error "pending"`,
        `${TOPIC_RULES.misspeltMember} warning "stat"`,
        `${TOPIC_RULES.outOfRange} error 130`,
        `${TOPIC_RULES.undefinedField} warning "fld_7_99"`,
        `${TOPIC_RULES.unknownCategory} error "hail"`,
        `${TOPIC_RULES.wrongType} error "2024-02-30"`,
        `${TOPIC_RULES.wrongType} error "2024-05-31T14:30:00Z"`,
        `${TOPIC_RULES.wrongType} error "yes"`,
        `${TOPIC_RULES.wrongType} error 2.5`,
      ].sort(),
    );
  });

  it('accepts the valid fixture, and gives the same problems from text, parsed value or tree', () => {
    assert.deepEqual(checkSpotAgainstTopic(read('spots', 'oak.spot.json'), catalog), []);
    const text = read('spots', 'problems.spot.json');
    const fromText = checkSpotAgainstTopic(text, catalog);
    assert.deepEqual(checkSpotAgainstTopic({ text, value: JSON.parse(text) }, catalog), fromText);
    assert.deepEqual(checkSpotAgainstTopic({ text, value: JSON.parse(text), tree: parseTree(text) }, catalog), fromText);
  });

  it('without a definition for the topic, only the did-you-mean rule applies', () => {
    const text = read('spots', 'other-topic.spot.json');
    const problems = checkSpotAgainstTopic(text, catalog);
    assert.deepEqual(
      problems.map((p) => [p.rule, p.severity, markedText(text, p)]),
      [[TOPIC_RULES.misspeltMember, 'warning', '"latitde"']],
    );
    assert.equal(problems[0].message, 'latitde is sent as a topic field; did you mean latitude?');
    assert.deepEqual(checkSpotAgainstTopic(text, new Map()), problems);
  });

  describe('did you mean (every document)', () => {
    const expectations: Array<[string, string | undefined]> = [
      ['stat', 'state'],
      ['State', 'state'],
      ['latitde', 'latitude'],
      ['lattiude', 'latitude'],
      ['longitud', 'longitude'],
      ['topicid', 'topic_id'],
      ['source-id', 'source_id'],
      ['privacy', undefined],
      ['notes', undefined],
      ['fld_1_2', undefined],
    ];
    for (const [name, meant] of expectations) {
      it(`${name} → ${meant ?? 'no warning'}`, () => {
        const text = spotText({ [name]: 1 }, 3);
        const problems = checkSpotAgainstTopic(text, new Map());
        if (!meant) return assert.deepEqual(problems, []);
        assert.equal(problems.length, 1);
        assert.equal(problems[0].message, `${name} is sent as a topic field; did you mean ${meant}?`);
        assert.equal(markedText(text, problems[0]), JSON.stringify(name));
      });
    }

    it('leaves a member alone that the topic defines, however close to a known member', () => {
      const definitions: TopicCatalog = new Map([[3, { topic_id: 3, fields: { stats: { label: 'Stats', type: 'text' } } }]]);
      assert.deepEqual(checkSpotAgainstTopic(spotText({ stats: 'x', fld_7_1: undefined }, 3), definitions), []);
    });
  });

  it('ignores what is not a spot with attributes (not JSON, no attributes)', () => {
    assert.deepEqual(checkSpotAgainstTopic('{"data": {', catalog), []);
    assert.deepEqual(checkSpotAgainstTopic('{"data": {"type": "spots"}}', catalog), []);
    assert.deepEqual(checkSpotAgainstTopic('[]', catalog), []);
  });

  it('knows gallery fields by definition: a null text field is not a pending gallery', () => {
    const attributes = { topic_id: 7, fld_7_3: null, fld_7_4: null, fld_7_50: null, fld_7_2: 3 };
    assert.deepEqual(pendingGalleryFields(attributes, trail), ['fld_7_3', 'fld_7_50']);
    // Without a definition: every fld_ member that is null, as before.
    assert.deepEqual(pendingGalleryFields(attributes, undefined), ['fld_7_3', 'fld_7_4', 'fld_7_50']);
  });
});
