// Where members are: the one-pass visitor and a jsonc-parser tree must agree, for nested values,
// arrays of objects, duplicates and text that is not (yet) valid JSON.
import * as assert from 'node:assert/strict';
import { parseTree } from 'jsonc-parser';
import { layoutFromText, layoutFromTree } from '../../src/core/topics/attributesLayout';

const documents = {
  nested: JSON.stringify(
    {
      meta: { attributes: { x: 1 } },
      data: {
        type: 'spots',
        id: [1, { data: 2 }],
        attributes: { topic_id: 7, a: { b: [1, 2], c: { d: null } }, e: [{ f: 1 }, [2, 3], 'g'], h: [], fld_7_1: 'x' },
      },
      other: { attributes: 1 },
    },
    null,
    2,
  ),
  duplicates: '{"data":{"attributes":{"a":1,"b":[true,false],"a":2}}}',
  compact: '{"data":{"attributes":{}}}',
  noAttributes: '{"data":{"type":"spots"}}',
  attributesNotObject: '{"data":{"attributes":[1,2]}}',
};

describe('attributes layout', () => {
  for (const [name, text] of Object.entries(documents)) {
    it(`agrees with the tree: ${name}`, () => {
      assert.deepEqual(layoutFromText(text), layoutFromTree(parseTree(text)!));
    });
  }

  it('places names, values and elements on their characters', () => {
    const text = documents.nested;
    const layout = layoutFromText(text);
    const slice = (span: { offset: number; length: number }) => text.slice(span.offset, span.offset + span.length);
    assert.deepEqual(
      layout.members.map((member) => slice(member.key)),
      ['"topic_id"', '"a"', '"e"', '"h"', '"fld_7_1"'],
    );
    assert.equal(slice(layout.key!), '"attributes"');
    assert.equal(JSON.parse(slice(layout.object!)).topic_id, 7);
    const e = layout.members.find((member) => member.name === 'e')!;
    assert.deepEqual(
      e.items!.map((item) => JSON.parse(slice(item))),
      [{ f: 1 }, [2, 3], 'g'],
    );
    assert.deepEqual(JSON.parse(slice(layout.members[1].value)), { b: [1, 2], c: { d: null } });
  });

  it('reads what it can of a document being typed', () => {
    const text = '{"data":{"type":"spots","attributes":{"topic_id": 7, "fld_7_1": ';
    const layout = layoutFromText(text);
    assert.deepEqual(
      layout.members.map((member) => member.name),
      ['topic_id', 'fld_7_1'],
    );
    assert.equal(text.slice(layout.members[0].value.offset, layout.members[0].value.offset + layout.members[0].value.length), '7');
  });
});
