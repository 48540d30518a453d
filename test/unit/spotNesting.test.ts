// A spot document that is null, or nests arrays and objects thousands of levels deep, is one
// invalid document with one clear problem: never an exception out of the core's validation (which
// the editor, the folder import and the command line all call), and never a stack overflow in one
// of the walks over the document that follow it.
import * as assert from 'node:assert/strict';
import { looksLikeSpotDocument, parseSpotText } from '../../src/core/documents/parseSpotText';
import { MAX_JSON_DEPTH } from '../../src/core/documents/nesting';
import { checkSpotAgainstTopic, topicCompletions, topicInlayHints, type TopicCatalog } from '../../src/core/topics';

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const catalog: TopicCatalog = new Map([[1, { topic_id: 1, fields: { fld_1_2: { label: 'Notes', type: 'text' } } }]]);

describe('spot documents nested too deeply, or null', () => {
  it('null is one invalid document, not an exception', () => {
    const parsed = parseSpotText('null');
    assert.equal(parsed.document, undefined);
    assert.equal(parsed.problems.length, 1);
    assert.equal(parsed.problems[0].severity, 'error');
  });

  for (const levels of [3000, 100_000]) {
    it(`an array nested ${levels} levels deep is refused with one problem that says how deep is allowed`, () => {
      const parsed = parseSpotText(deepArray(levels));
      assert.equal(parsed.document, undefined);
      assert.deepEqual(
        parsed.problems.map((problem) => problem.message),
        [`The document nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; a spot document needs only a few.`],
      );
      // Placed on the first bracket too deep, with its path.
      assert.equal(parsed.problems[0].offset, MAX_JSON_DEPTH);
      assert.equal(parsed.problems[0].pointer, '/0'.repeat(MAX_JSON_DEPTH));
    });
  }

  it('refuses deep nesting the JSON never closes (not JSON either), without overflowing', () => {
    const parsed = parseSpotText('['.repeat(100_000));
    assert.equal(parsed.problems.length, 1);
    assert.match(parsed.problems[0].message, /more than 64 levels deep/);
  });

  it('places deep nesting inside a member on its path; 64 levels are still accepted', () => {
    const member = (levels: number) =>
      `{"data": {"type": "spots", "attributes": {"topic_id": 1, "source_id": "d", "latitude": 1, "longitude": 1, "fld_1_2": ${deepArray(levels)}}}}`;
    // The document is level 1, data 2, attributes 3: the member's arrays start at level 4.
    const deep = parseSpotText(member(3000));
    assert.equal(deep.problems.length, 1);
    assert.equal(deep.problems[0].pointer, '/data/attributes/fld_1_2' + '/0'.repeat(MAX_JSON_DEPTH - 3));
    const text = member(3000);
    assert.equal(deep.problems[0].offset, text.indexOf('[') + MAX_JSON_DEPTH - 3);
    const deepest = parseSpotText(member(MAX_JSON_DEPTH - 3));
    assert.ok(
      deepest.problems.every((problem) => !/levels deep/.test(problem.message)),
      JSON.stringify(deepest.problems),
    );
  });

  it('a deep .json file is told apart by its data.type without overflowing (folder walks, the editor)', () => {
    const deep = (type: string) => `{"data": {"type": "${type}", "attributes": {"x": ${deepArray(100_000)}}}}`;
    assert.equal(looksLikeSpotDocument('walk.json', deep('spots')), true);
    assert.equal(looksLikeSpotDocument('other.json', `{"other": {"type": "spots"}, "deep": ${deepArray(100_000)}}`), false);
  });

  it('a string full of brackets is not nesting', () => {
    const text = JSON.stringify({
      data: { type: 'spots', attributes: { topic_id: 1, source_id: '[{"\\', latitude: 1, longitude: 1, fld_1_2: '['.repeat(500) } },
    });
    assert.deepEqual(parseSpotText(text).problems, []);
  });

  it("the editor's topic checks and assists on a deep document answer without overflowing", () => {
    const text = `{"data": {"type": "spots", "attributes": {"topic_id": 1, "fld_1_2": ${deepArray(100_000)}}}}`;
    assert.deepEqual(checkSpotAgainstTopic(text, catalog), []);
    assert.doesNotThrow(() => topicCompletions(text, 20, catalog));
    assert.doesNotThrow(() => topicInlayHints(text, catalog));
  });
});
