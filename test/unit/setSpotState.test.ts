import * as assert from 'node:assert/strict';
import { applyEdits } from 'jsonc-parser';
import { attributeValueSpans, setSpotState, spotStateEditor } from '../../src/core/documents/setSpotState';

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

describe('spotStateEditor: the same edits as setSpotState, the members found once', () => {
  const attributes = {
    topic_id: 37,
    source_id: 'a-1',
    state: 2,
    fld_37_12: null,
    fld_37_13: null,
    note: 'x "quoted" \\ back\u00e9',
    nested: { state: 5, fld_37_12: null, list: [1, -2.5e3, true, false, null, 'a]'] },
  };
  const documents = [
    JSON.stringify({ data: { type: 'spots', attributes } }, null, 2),
    JSON.stringify({ data: { type: 'spots', attributes } }, null, 4) + '\n',
    JSON.stringify({ data: { type: 'spots', attributes } }, null, '\t').replace(/\n/g, '\r\n'),
    JSON.stringify({ data: { type: 'spots', attributes } }),
    JSON.stringify({ meta: { data: { type: 'spots', attributes: { state: 9 } } }, data: { attributes, id: '7', type: 'spots' } }, null, 2),
    '\uFEFF' + JSON.stringify({ data: { type: 'spots', attributes } }, null, 2),
    '{ "data" : { "type" : "spots" , "attributes" : { "state" :   2  ,"fld_37_12":null,\n\n "fld_37_13" : null } } }  \n',
    '{"data":{"type":"spots","attributes":{"state":"2","fld_37_12":null}}}',
    '{"data":{"type":"spots","attributes":{"state":2.0,"fld_37_12":null}}}',
    '{"data":{"type":"\\u0073pots","attributes":{"st\\u0061te":1,"fld_37_12":null}}}',
    '{"data":{"type":"spots","attributes":{"state":{"a":[1,2]},"fld_37_12":null}}}',
    // Left to setSpotState: no state member, not a spot document, not strict JSON, a name twice.
    JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, fld_37_12: null } } }, null, 2),
    '{"data":{"type":"places","attributes":{"state":2}}}',
    '{"data":{"type":"spots","attributes":{"state":2}}} x',
    '{"data":{"type":"spots","attributes":{"state":2,}}}',
    '{"data":{"type":"spots","attributes":{"state":2 /* c */}}}',
    '{"data":{"type":"spots","attributes":{"state":2,"state":1}}}',
    '{"data":{"type":"spots","attributes":{"state":2}},"data":{"type":"spots","attributes":{"state":1}}}',
    '{"data":{"type":"spots","attributes":3}}',
    '{"data":3}',
    '',
    '[1]',
  ];
  const calls: Array<[number, Record<string, number>]> = [
    [2, {}],
    [1, {}],
    [2, { fld_37_12: 200001 }],
    [1, { fld_37_12: 200001, fld_37_13: 7, fld_37_99: 5, note: 3 }],
    [3, { fld_37_13: 12 }],
  ];

  it('gives what setSpotState gives, call after call, for documents of every shape', () => {
    for (const text of documents) {
      const edit = spotStateEditor(text);
      for (const [state, galleries] of calls)
        assert.deepEqual(edit(state, galleries), setSpotState(text, state, galleries), `${JSON.stringify(text)} → ${state} ${JSON.stringify(galleries)}`);
    }
  });

  it('finds the members itself in strict spot documents, and leaves every other text to setSpotState', () => {
    const found = documents.filter((text) => attributeValueSpans(text.replace(/^\uFEFF/, '')) !== undefined).length;
    assert.equal(found, 12, 'the documents above the note, and the one without a state (added by setSpotState)');
    const spans = attributeValueSpans(documents[0])!;
    assert.deepEqual([...spans.keys()], Object.keys(attributes));
    assert.equal(spans.get('fld_37_12')!.raw, 'null');
    const nested = spans.get('nested')!;
    assert.deepEqual(JSON.parse(documents[0].slice(nested.offset, nested.offset + nested.length)), attributes.nested, 'a value is its whole text');
  });
});
