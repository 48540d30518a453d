import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpotText, looksLikeSpotDocument, MAX_DOCUMENT_BYTES } from '../../src/core/documents/parseSpotText';
import { validateSpotDocument } from '../../src/core/documents/validateSpot';
import { spotDocumentJsonSchema } from '../../src/core/api/jsonSchema';
import { pendingGalleryMessage, SPOT_STATE, TOPIC_FIELD_NAME } from '../../src/core/api/spotSchema';
import { spotTemplate } from '../../src/core/api/spotDocumentSchema';

const fixtures = join(__dirname, '../../../test/fixtures/spots');
const read = (kind: string, name: string) => readFileSync(join(fixtures, kind, name), 'utf8');

// Which members each invalid fixture must be flagged at (and nothing else).
const expectedPointers: Record<string, string[]> = {
  'wrong-types.spot.json': ['/data/attributes/topic_id', '/data/attributes/source_id', '/data/attributes/latitude'],
  'out-of-range.spot.json': ['/data/attributes/latitude', '/data/attributes/longitude', '/data/attributes/state', '/data/attributes/privacy_type'],
  'missing-fields.spot.json': ['/data/attributes/topic_id', '/data/attributes/source_id', '/data/attributes/latitude', '/data/attributes/longitude'],
  'pending-needs-state-2.spot.json': ['/data/attributes/fld_37_12'],
  'wrong-type-literal.spot.json': ['/data/type', '/data/attributes/root_id'],
  'malformed.spot.json': [''],
};

describe('spot document schema', () => {
  for (const name of readdirSync(join(fixtures, 'valid'))) {
    it(`accepts valid/${name}`, () => {
      const parsed = parseSpotText(read('valid', name));
      assert.deepEqual(parsed.problems, []);
      assert.ok(parsed.document);
    });
  }

  for (const name of readdirSync(join(fixtures, 'invalid'))) {
    it(`rejects invalid/${name} at the right members`, () => {
      const text = read('invalid', name);
      const parsed = parseSpotText(text);
      assert.equal(parsed.document, undefined);
      assert.deepEqual([...new Set(parsed.problems.map((p) => p.pointer))].sort(), [...expectedPointers[name]].sort());
      for (const problem of parsed.problems) {
        assert.ok(problem.offset >= 0 && problem.offset + problem.length <= text.length, 'inside the text');
        assert.ok(problem.message.length > 5);
      }
    });
  }

  it('applies defaults: state 1 and privacy_type 0', () => {
    const result = validateSpotDocument(spotTemplate('a'));
    assert.ok(result.ok);
    const bare = validateSpotDocument({ data: { type: 'spots', attributes: { topic_id: 1, source_id: 'b', latitude: 0, longitude: 0 } } });
    assert.ok(bare.ok);
    assert.equal(bare.document.data.attributes.state, 1);
    assert.equal(bare.document.data.attributes.privacy_type, 0);
  });

  it('passes topic fields through untouched and does not judge non-null fld_ values', () => {
    const doc = {
      data: {
        type: 'spots',
        attributes: { topic_id: 1, source_id: 'c', latitude: 0, longitude: 0, fld_1_2: 17, fld_1_3: 'text', fld_1_4: [1, 2], note: { a: 1 } },
      },
    };
    const result = validateSpotDocument(doc);
    assert.ok(result.ok);
    assert.deepEqual(result.document.data.attributes.fld_1_4, [1, 2]);
    assert.deepEqual(result.document.data.attributes.note, { a: 1 });
  });

  it('reports the pending-gallery rule even when other members are wrong too', () => {
    const result = validateSpotDocument({ data: { type: 'spots', attributes: { topic_id: 'x', source_id: 'c', latitude: 0, longitude: 0, fld_1_2: null } } });
    assert.ok(!result.ok);
    assert.deepEqual(result.problems.map((p) => p.pointer).sort(), ['/data/attributes/fld_1_2', '/data/attributes/topic_id']);
  });

  it('places a wrong value on the value and a missing member on its parent key', () => {
    const text = read('invalid', 'pending-needs-state-2.spot.json');
    const problem = parseSpotText(text).problems[0];
    assert.equal(text.slice(problem.offset, problem.offset + problem.length), 'null');
    const missing = read('invalid', 'missing-fields.spot.json');
    const topic = parseSpotText(missing).problems.find((p) => p.pointer === '/data/attributes/topic_id');
    assert.ok(topic);
    assert.equal(missing.slice(topic.offset, topic.offset + topic.length), '"attributes"');
    assert.match(topic.message, /topic_id is required/);
  });

  it('refuses text larger than a spot document and empty text, without throwing', () => {
    const huge = parseSpotText('{"a":"' + 'x'.repeat(MAX_DOCUMENT_BYTES) + '"}');
    assert.match(huge.problems[0].message, /larger than/);
    assert.match(parseSpotText('').problems[0].message, /JSON/);
    assert.equal(parseSpotText('[1,2]').problems[0].pointer, '');
  });

  it('recognises spot documents by name or by data.type', () => {
    assert.ok(looksLikeSpotDocument('/x/a.spot.json', ''));
    assert.ok(looksLikeSpotDocument('/x/a.json', '{"data":{"type":"spots"}}'));
    assert.ok(!looksLikeSpotDocument('/x/a.json', '{"data":{"type":"galleries"},"x":{"type":"spots"}}'));
    assert.ok(!looksLikeSpotDocument('/x/package.json', '{"name":"x"}'));
  });

  it('generates a JSON Schema with descriptions, enum descriptions and snippets', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking generated JSON
    const schema = spotDocumentJsonSchema() as any;
    const attributes = schema.properties.data.properties.attributes;
    assert.deepEqual(attributes.required.sort(), ['latitude', 'longitude', 'source_id', 'topic_id']);
    assert.deepEqual(attributes.properties.state.enum, [1, 2]);
    assert.equal(attributes.properties.state.enumDescriptions.length, 2);
    assert.equal(attributes.properties.privacy_type.enumDescriptions.length, 2);
    assert.ok(attributes.properties.latitude.description);
    assert.ok(schema.defaultSnippets.length >= 1);
    assert.ok(validateSpotDocument(JSON.parse(JSON.stringify(schema.defaultSnippets[0].body).replace('${1:my-source-id}', 'z'))).ok);
  });
});

/** Every subschema of a generated JSON Schema, depth first. */
function* subschemas(node: unknown): Generator<Record<string, unknown>> {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node)) yield node as Record<string, unknown>;
  for (const child of Object.values(node)) yield* subschemas(child);
}

describe('the editor schema agrees with the core', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walking generated JSON
  const schema = spotDocumentJsonSchema() as any;
  const attributes = schema.properties.data.properties.attributes;

  it('says whole numbers as numbers that are multiples of 1, so 7.0 is one (as in the core)', () => {
    for (const name of ['topic_id', 'root_id']) {
      assert.equal(attributes.properties[name].type, 'number', name);
      assert.equal(attributes.properties[name].multipleOf, 1, name);
    }
    const integers = [...subschemas(schema)].filter((node) => node.type === 'integer' || (Array.isArray(node.type) && node.type.includes('integer')));
    assert.deepEqual(integers, [], 'no "integer" type: VS Code calls 7.0 "Incorrect type" there');
    const text = '{"data":{"type":"spots","attributes":{"topic_id":7.0,"root_id":3.00,"source_id":"a","latitude":1,"longitude":2}}}';
    const parsed = parseSpotText(text);
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.document?.data.attributes.topic_id, 7);
    assert.match(parseSpotText(text.replace('7.0', '7.5')).problems[0].message, /topic_id must be a whole number/);
  });

  it("gives the editor the core's words for a wrong type or value", () => {
    const text = '{"data":{"type":"spots","attributes":{"topic_id":"one","source_id":5,"latitude":"n","longitude":2,"state":3}}}';
    const byPointer = new Map(parseSpotText(text).problems.map((problem) => [problem.pointer, problem.message]));
    for (const name of ['topic_id', 'source_id', 'latitude', 'state']) {
      assert.equal(attributes.properties[name].errorMessage, byPointer.get(`/data/attributes/${name}`), name);
    }
  });

  it('carries the pending-gallery rule as draft-07 if/else, derived from the core rule', () => {
    // if state is 2 (present and 2): nothing more; else every fld_ member must not be null.
    assert.deepEqual(attributes.if, { required: ['state'], properties: { state: { const: SPOT_STATE.inProgress } } });
    const pending = attributes.else.patternProperties[TOPIC_FIELD_NAME.source];
    assert.deepEqual(pending.not, { type: 'null' });
    assert.equal(pending.errorMessage, pendingGalleryMessage());
    assert.match(pending.errorMessage, /pending \(null\).*"state": 2/);
    assert.equal(attributes.then, undefined);
  });
});

describe('source_id is sent exactly as validated', () => {
  it('keeps surrounding spaces (the service matches source_id exactly) and refuses blank ones', () => {
    const spaced = validateSpotDocument({ data: { type: 'spots', attributes: { topic_id: 1, source_id: ' trail-7 ', latitude: 0, longitude: 0 } } });
    assert.ok(spaced.ok);
    assert.equal(spaced.document.data.attributes.source_id, ' trail-7 ');
    const blank = validateSpotDocument({ data: { type: 'spots', attributes: { topic_id: 1, source_id: '   ', latitude: 0, longitude: 0 } } });
    assert.ok(!blank.ok);
    assert.equal(blank.problems[0].message, 'source_id must be a non-empty text.');
  });
});
