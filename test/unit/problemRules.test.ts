import * as assert from 'node:assert/strict';
import { parseSpotText } from '../../src/core/documents/parseSpotText';
import { SPOT_RULES } from '../../src/core/documents/problems';

// Quick fixes in the editor and the command line's reports key on these rule ids.
describe('rule ids on the base document problems', () => {
  it('a member named twice carries spot.duplicateMember, at its second occurrence', () => {
    const text = '{"data":{"type":"spots","attributes":{"topic_id":1,"source_id":"a","source_id":"b","latitude":1,"longitude":2}}}';
    const parsed = parseSpotText(text);
    const duplicate = parsed.problems.find((problem) => problem.rule === SPOT_RULES.duplicateMember);
    assert.ok(duplicate, JSON.stringify(parsed.problems));
    assert.equal(duplicate.offset, text.lastIndexOf('"source_id"'));
  });

  it('a pending gallery without state 2 carries spot.pendingNeedsState2, whether or not other fields are valid', () => {
    for (const latitude of [1, 'not a number']) {
      const text = JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: 'a', latitude, longitude: 2, fld_1_2: null } } });
      const pending = parseSpotText(text).problems.filter((problem) => problem.rule === SPOT_RULES.pendingNeedsState2);
      assert.equal(pending.length, 1, `latitude ${latitude}`);
      assert.equal(pending[0].pointer, '/data/attributes/fld_1_2');
    }
  });
});
