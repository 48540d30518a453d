// The spot document's schema uses zod core's compiled object parse (zod.ts, compiledObject): the
// same rules as zod/mini's walk of the members, generated as code once. These tests hold the two
// to the same answers (values with defaults, every issue with its path and message, in order) on
// the fixtures and on documents made to hit each branch of the generated code.
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as z from '../../src/core/api/zod';
import { spotAttributesSchema, spotDocumentSchema } from '../../src/core/api/spotDocumentSchema';
import { KNOWN_SPOT_MEMBERS } from '../../src/core/topics/topicSchema';

const fixtures = join(__dirname, '../../../test/fixtures/spots');

/** The same schema with zod/mini's own object at every level where the spot schema compiles one. */
function walkedSchema() {
  const attributesDef = spotAttributesSchema._zod.def;
  const attributes = z.catchall(z.object(attributesDef.shape), attributesDef.catchall!);
  const dataDef = (spotDocumentSchema._zod.def.shape.data as typeof spotDocumentSchema._zod.def.shape.data)._zod.def;
  return z.object({ data: z.object({ type: dataDef.shape.type, attributes }) });
}

function answers(
  schema: {
    safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: Array<{ path: PropertyKey[]; message: string; code: string }> } };
  },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return result.success
    ? { data: result.data }
    : { issues: result.error!.issues.map((issue) => ({ path: issue.path, message: issue.message, code: issue.code })) };
}

const base = { topic_id: 7, source_id: 's-1', latitude: 48.2, longitude: 16.37 };
const documents: Array<[string, unknown]> = [
  ['a minimal document (defaults for state and privacy_type)', { data: { type: 'spots', attributes: base } }],
  ['topic fields pass through, in their order', { data: { type: 'spots', attributes: { fld_7_2: 'x', ...base, fld_7_1: null, state: 2 } } }],
  ['every optional member given', { data: { type: 'spots', attributes: { ...base, root_id: 3, state: 1, privacy_type: 1 } } }],
  ['members of the wrong type', { data: { type: 'spots', attributes: { topic_id: '7', source_id: 5, latitude: 'n', longitude: null } } }],
  ['out of range', { data: { type: 'spots', attributes: { ...base, latitude: 91, longitude: -181, state: 3, privacy_type: 2 } } }],
  ['missing members', { data: { type: 'spots', attributes: { fld_7_1: 'x' } } }],
  ['a wrong type literal and no attributes', { data: { type: 'spot' } }],
  ['attributes that are not an object', { data: { type: 'spots', attributes: [1, 2] } }],
  ['data that is not an object', { data: 'spots' }],
  ['no data', {}],
  ['null', null],
  [
    'a member named __proto__ and one named constructor',
    JSON.parse('{"data":{"type":"spots","attributes":{"topic_id":7,"source_id":"s","latitude":1,"longitude":2,"__proto__":{"x":1},"constructor":3}}}'),
  ],
  [
    'members beside data and beside attributes (dropped, as zod/mini drops them)',
    { data: { id: '9', type: 'spots', attributes: base, links: {} }, meta: { from: 'x' } },
  ],
  ['members set to undefined', { data: { type: 'spots', attributes: { ...base, state: undefined, root_id: undefined } } }],
];

describe("the spot schema's compiled object parse", () => {
  const walked = walkedSchema();

  it("is the compiled parse (zod core's $ZodObjectJIT) at every object level", () => {
    for (const schema of [spotDocumentSchema, spotDocumentSchema._zod.def.shape.data, spotAttributesSchema]) {
      assert.ok((schema as { _zod: { traits: Set<string> } })._zod.traits.has('$ZodObjectJIT'));
    }
    assert.ok(!walked._zod.traits.has('$ZodObjectJIT'), "the walked schema is zod/mini's own");
  });

  for (const [what, value] of documents) {
    it(`answers as zod/mini's walk: ${what}`, () => {
      // Twice: the code is generated at the first parse, and the second runs it again.
      assert.deepEqual(answers(spotDocumentSchema, value), answers(walked, value));
      assert.deepEqual(answers(spotDocumentSchema, value), answers(walked, value));
    });
  }

  for (const kind of ['valid', 'invalid']) {
    for (const name of readdirSync(join(fixtures, kind))) {
      it(`answers as zod/mini's walk: ${kind}/${name}`, () => {
        let value: unknown;
        try {
          value = JSON.parse(readFileSync(join(fixtures, kind, name), 'utf8'));
        } catch {
          return; // not JSON: never reaches the schema
        }
        assert.deepEqual(answers(spotDocumentSchema, value), answers(walked, value));
      });
    }
  }

  it("keeps zod/mini's shape for the members the topic rules know", () => {
    assert.deepEqual([...KNOWN_SPOT_MEMBERS].sort(), ['latitude', 'longitude', 'privacy_type', 'root_id', 'source_id', 'state', 'topic_id']);
  });
});
