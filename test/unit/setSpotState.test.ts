import * as assert from 'node:assert/strict';
import { applyEdits } from 'jsonc-parser';
import { setSpotState } from '../../src/core/documents/setSpotState';

function edited(text: string, state: number, galleries?: Record<string, number>): string {
  const result = setSpotState(text, state, galleries);
  assert.ok(result.ok, result.ok ? '' : result.reason);
  assert.equal(applyEdits(text, result.edits), result.text, 'the edits produce the returned text');
  return result.text;
}

describe('setSpotState', () => {
  const pending = [
    '{',
    '    "data": {',
    '        "type": "spots",',
    '        "attributes": { "topic_id": 37, "source_id": "a-1", "state": 2,   "fld_37_12": null, "note": "x" }',
    '    }',
    '}',
    '',
  ].join('\n');

  it('replaces an existing state and keeps the rest of the text as it was', () => {
    assert.equal(edited(pending, 1), pending.replace('"state": 2', '"state": 1'));
  });

  it('fills pending gallery fields it is given, and no others', () => {
    const text = edited(pending, 1, { fld_37_12: 200001, fld_37_99: 5 });
    assert.equal(text, pending.replace('"state": 2', '"state": 1').replace('"fld_37_12": null', '"fld_37_12": 200001'));
    assert.equal(edited(text, 1, { fld_37_12: 7 }), text, 'a gallery field that holds an id is left alone');
  });

  it('adds a missing state to the attributes, formatted like the document', () => {
    const text = JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: 'b' } } }, null, 2);
    const result = edited(text, 1);
    assert.deepEqual(JSON.parse(result), { data: { type: 'spots', attributes: { topic_id: 1, source_id: 'b', state: 1 } } });
    assert.ok(result.startsWith(text.slice(0, text.indexOf('"b"') + 3)), 'everything before the new member is unchanged');
    assert.match(result, /\n {6}"state": 1\n/);
  });

  it('gives no edits when the state already is the one asked for', () => {
    const text = pending.replace('"state": 2', '"state": 1');
    const result = setSpotState(text, 1);
    assert.ok(result.ok);
    assert.deepEqual(result.edits, []);
  });

  it('edits a document that starts with a byte-order mark, keeping the mark', () => {
    const text = '\uFEFF' + pending;
    assert.equal(edited(text, 1), '\uFEFF' + pending.replace('"state": 2', '"state": 1'));
  });

  it('refuses text that is not a spot document, with a reason', () => {
    for (const text of ['', '{ "data": ', '[1, 2]', '{"data": {"type": "places", "attributes": {}}}', '{"data": {"type": "spots", "attributes": 3}}']) {
      const result = setSpotState(text, 1);
      assert.equal(result.ok, false, text);
      assert.ok(!result.ok && result.reason.length > 0);
    }
  });
});
