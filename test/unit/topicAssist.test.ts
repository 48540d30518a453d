// What the editor gets from the core for documents of a defined topic: quick fixes (applied, the
// document is then valid), completions, hovers, inlay hints, and a definition inferred from a
// document.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpotText } from '../../src/core/documents/parseSpotText';
import type { SpotTextEdit } from '../../src/core/documents/setSpotState';
import {
  checkSpotAgainstTopic,
  inferTopicDefinition,
  parseTopicDefinition,
  topicCompletions,
  topicHover,
  topicInlayHints,
  topicQuickFixes,
  TOPIC_RULES,
  type TopicCatalog,
} from '../../src/core/topics';

const fixtures = join(__dirname, '../../../test/fixtures/topics/project');
const read = (...parts: string[]) => readFileSync(join(fixtures, ...parts), 'utf8');
const catalog: TopicCatalog = new Map(
  ['7.topic.json', '8.topic.json'].map((name) => {
    const definition = parseTopicDefinition(read('spot-topics', name)).definition!;
    return [definition.topic_id, definition];
  }),
);

function spotText(attributes: Record<string, unknown>): string {
  return (
    JSON.stringify(
      { data: { type: 'spots', attributes: { topic_id: 7, source_id: 's-1', latitude: 47.2, longitude: 11.4, state: 1, fld_7_1: 1, ...attributes } } },
      null,
      2,
    ) + '\n'
  );
}

function apply(text: string, edits: SpotTextEdit[]): string {
  return [...edits]
    .sort((a, b) => b.offset - a.offset)
    .reduce((result, edit) => result.slice(0, edit.offset) + edit.content + result.slice(edit.offset + edit.length), text);
}

/** Applies the one fix offered for the first problem of `rule`; returns the fixed text. */
function fixFirst(text: string, rule: string): { title: string; text: string } {
  const problem = checkSpotAgainstTopic(text, catalog).find((candidate) => candidate.rule === rule);
  assert.ok(problem, `a ${rule} problem in ${text}`);
  const fixes = topicQuickFixes(text, rule, problem.offset, catalog);
  assert.equal(fixes.length, 1);
  return { title: fixes[0].title, text: apply(text, fixes[0].edits) };
}

function assertValid(text: string): void {
  assert.deepEqual(parseSpotText(text).problems, []);
  assert.deepEqual(checkSpotAgainstTopic(text, catalog), []);
}

describe('topic quick fixes', () => {
  it('renames a misspelt known member', () => {
    const { title, text } = fixFirst(spotText({ state: undefined, stat: 1 }), TOPIC_RULES.misspeltMember);
    assert.equal(title, 'Rename stat to state');
    assert.match(text, /"state": 1/);
    assertValid(text);
  });

  it('renames a member the topic does not define to the close one it does', () => {
    const { title, text } = fixFirst(spotText({ spoted_at: '2024-05-31 14:30:00' }), TOPIC_RULES.undefinedField);
    assert.equal(title, 'Rename spoted_at to Observed at (spotted_at)');
    assertValid(text);
  });

  it('offers no rename onto a member that is already there', () => {
    const text = spotText({ stat: 1 });
    const problem = checkSpotAgainstTopic(text, catalog)[0];
    assert.deepEqual(topicQuickFixes(text, problem.rule, problem.offset, catalog), []);
  });

  it('replaces a category label with its key, in a category and in a categories array', () => {
    const single = fixFirst(spotText({ fld_7_1: 'Beech' }), TOPIC_RULES.categoryLabel);
    assert.equal(single.title, 'Replace "Beech" with its key 2');
    assert.match(single.text, /"fld_7_1": 2\n/);
    assertValid(single.text);
    const many = fixFirst(spotText({ fld_7_9: ['storm', 'bark beetles'] }), TOPIC_RULES.categoryLabel);
    assert.match(many.text, /"storm",\s*"beetle"/);
    assertValid(many.text);
  });

  it('adds the required fields with placeholders (and state 2 for a required gallery)', () => {
    const seven = fixFirst(spotText({ fld_7_1: undefined }), TOPIC_RULES.requiredMissing);
    assert.equal(seven.title, 'Add the required field Species (fld_7_1)');
    assert.match(seven.text, /"fld_7_1": 1\n/);
    assertValid(seven.text);
    const eight = spotText({ topic_id: 8, fld_7_1: undefined });
    assert.equal(checkSpotAgainstTopic(eight, catalog).length, 2);
    const fixed = fixFirst(eight, TOPIC_RULES.requiredMissing);
    assert.equal(fixed.title, 'Add the 2 required fields of topic 8 (Benches) (and "state": 2 for the pending gallery)');
    assert.match(fixed.text, /"fld_8_1": 1,\s*"fld_8_2": null/);
    assertValid(fixed.text);
  });

  it("sets state 2 for a pending gallery (the core's problem, by its code)", () => {
    const text = spotText({ fld_7_3: null });
    const pending = parseSpotText(text).problems.find((problem) => /needs "state": 2/.test(problem.message));
    assert.ok(pending);
    const [fix] = topicQuickFixes(text, TOPIC_RULES.pendingNeedsState2, pending.offset, catalog);
    assert.match(fix.title, /Set "state": 2/);
    assertValid(apply(text, fix.edits));
  });

  it("removes a duplicate member (the core's problem, by its code), wherever the later one is", () => {
    const text =
      '{\n  "data": {\n    "type": "spots",\n    "attributes": {\n      "topic_id": 7,\n      "fld_7_1": 1,\n      "source_id": "s",\n      "latitude": 1,\n      "fld_7_1": 2,\n      "longitude": 2\n    }\n  }\n}\n';
    const second = text.lastIndexOf('"fld_7_1"');
    const [fix] = topicQuickFixes(text, TOPIC_RULES.duplicateMember, second, catalog);
    assert.equal(fix.title, 'Remove this duplicate fld_7_1');
    const fixed = apply(text, fix.edits);
    assert.equal(fixed, text.replace(',\n      "fld_7_1": 2', ''));
    assertValid(fixed);
    // On the value, and as the last member.
    const last = text.replace('"latitude": 1,\n      "fld_7_1": 2,\n      "longitude": 2', '"latitude": 1,\n      "longitude": 2,\n      "fld_7_1": 2');
    const [atEnd] = topicQuickFixes(last, TOPIC_RULES.duplicateMember, last.lastIndexOf('2\n'), catalog);
    assertValid(apply(last, atEnd.edits));
  });

  it('offers nothing for a rule it does not fix, or where the problem has gone', () => {
    const text = spotText({});
    assert.deepEqual(topicQuickFixes(text, TOPIC_RULES.outOfRange, 10, catalog), []);
    assert.deepEqual(topicQuickFixes(text, TOPIC_RULES.categoryLabel, text.indexOf('"fld_7_1"'), catalog), []);
    assert.deepEqual(topicQuickFixes(text, TOPIC_RULES.requiredMissing, 0, catalog), []);
  });
});

describe('topic editor help', () => {
  it('completes field names with their labels, required first, leaving out those already there', () => {
    const text = spotText({}).replace('"fld_7_1": 1\n', '"fld_7_1": 1,\n      \n');
    const offset = text.indexOf('      \n') + 6;
    const items = topicCompletions(text, offset, catalog);
    assert.ok(items.every((item) => item.kind === 'field'));
    assert.ok(!items.some((item) => item.label === 'fld_7_1'));
    const height = items.find((item) => item.label === 'fld_7_2')!;
    assert.equal(height.description, 'Height (m)');
    assert.equal(height.detail, 'number, 0 to 120');
    assert.equal(height.insertSnippet, '"fld_7_2": ${1:0}');
    assert.equal(items.find((item) => item.label === 'fld_7_4')?.documentation, 'Free text.');
  });

  it('completes inside a half-typed name, replacing it and keeping its colon', () => {
    const text = spotText({ fld_7_: 3 });
    const offset = text.indexOf('"fld_7_"') + 4;
    const items = topicCompletions(text, offset, catalog);
    const count = items.find((item) => item.label === 'fld_7_6')!;
    assert.equal(count.insertSnippet, '"fld_7_6"');
    assert.deepEqual(count.replace, { offset: text.indexOf('"fld_7_"'), length: 8 });
  });

  it('completes category keys with their labels, for a category and inside a categories array', () => {
    const text = spotText({ fld_7_9: [] });
    const single = topicCompletions(text, text.indexOf('"fld_7_1": ') + 11, catalog);
    assert.deepEqual(
      single.map((item) => [item.kind, item.label, item.description]),
      [
        ['category', '1', 'Oak'],
        ['category', '2', 'Beech'],
        ['category', '3', 'Larch'],
      ],
    );
    assert.deepEqual(single[0].replace, { offset: text.indexOf('"fld_7_1": ') + 11, length: 1 });
    const inArray = topicCompletions(text, text.indexOf('[]') + 1, catalog);
    assert.deepEqual(
      inArray.map((item) => item.label),
      ['"storm"', '"beetle"', '"drought"'],
    );
    assert.deepEqual(
      inArray.map((item) => item.description),
      ['Storm', 'Bark beetles', 'Drought'],
    );
  });

  it('offers nothing for a topic without a definition, or outside data.attributes', () => {
    const text = spotText({ topic_id: 3 });
    assert.deepEqual(topicCompletions(text, text.indexOf('"fld_7_1": ') + 11, catalog), []);
    const seven = spotText({});
    assert.deepEqual(topicCompletions(seven, seven.indexOf('"spots"'), catalog), []);
  });

  it('hovers a field name with label, type, description and values, and a category key with its label', () => {
    const text = read('spots', 'oak.spot.json');
    const onName = topicHover(text, text.indexOf('"fld_7_1"') + 2, catalog)!;
    assert.match(onName.markdown, /\*\*Species\*\* `fld_7_1` · category, required · topic 7 \(Trail observations\)/);
    assert.match(onName.markdown, /Values: `1` Oak · `2` Beech · `3` Larch/);
    assert.equal(text.slice(onName.span.offset, onName.span.offset + onName.span.length), '"fld_7_1"');
    const onKey = topicHover(text, text.indexOf('"fld_7_1": 1') + 11, catalog)!;
    assert.match(onKey.markdown, /`1` = \*\*Oak\*\*/);
    const notes = topicHover(text, text.indexOf('"fld_7_4"') + 2, catalog)!;
    assert.match(notes.markdown, /text, at most 500 characters/);
    assert.match(notes.markdown, /\n\nFree text\.$/);
    assert.equal(topicHover(text, text.indexOf('"latitude"') + 2, catalog), undefined);
  });

  it('gives inlay hints after each fld_ name and each category key', () => {
    const text = read('spots', 'oak.spot.json');
    const hints = topicInlayHints(text, catalog).map((hint) => [hint.kind, hint.label, text.slice(hint.offset - 9, hint.offset)]);
    assert.deepEqual(hints, [
      ['field', 'Species', '"fld_7_1"'],
      ['category', 'Oak', 'fld_7_1": 1'.slice(-9)],
      ['field', 'Height (m)', '"fld_7_2"'],
      ['field', 'Photos', '"fld_7_3"'],
      ['field', 'Notes', '"fld_7_4"'],
      ['field', 'Count', '"fld_7_6"'],
      ['field', 'Protected', '"fld_7_7"'],
      ['field', 'Planted on', '"fld_7_8"'],
      ['field', 'Threats', '"fld_7_9"'],
      ['category', 'Storm', ' ["storm"'],
      ['category', 'Bark beetles', '"beetle"'.padStart(9, ' ')],
    ]);
    assert.deepEqual(topicInlayHints(read('spots', 'other-topic.spot.json'), catalog), []);
  });
});

describe('definition inferred from a document', () => {
  it('infers types from values with empty labels; the document then checks clean against it', () => {
    const text = read('spots', 'oak.spot.json');
    const inferred = inferTopicDefinition(text);
    assert.ok(inferred.ok);
    assert.equal(inferred.topicId, 7);
    const parsed = parseTopicDefinition(inferred.text);
    assert.deepEqual(parsed.problems, []);
    const fields = parsed.definition!.fields;
    assert.deepEqual(Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.type])), {
      fld_7_1: 'integer',
      fld_7_2: 'number',
      fld_7_3: 'gallery',
      fld_7_4: 'text',
      spotted_at: 'datetime',
      fld_7_6: 'integer',
      fld_7_7: 'boolean',
      fld_7_8: 'date',
      fld_7_9: 'categories',
    });
    assert.ok(Object.values(fields).every((field) => field.label === ''));
    assert.deepEqual(checkSpotAgainstTopic(text, new Map([[7, parsed.definition!]])), []);
  });

  it('says why it cannot infer from a document without topic_id or that is not JSON', () => {
    assert.deepEqual(inferTopicDefinition('{'), { ok: false, reason: 'The document is not valid JSON.' });
    assert.equal(inferTopicDefinition({ data: { attributes: { topic_id: 'x' } } }).ok, false);
  });
});
