// Topic definition files: parsing with located problems, a folder of them (broken files reported
// and skipped, duplicate topic ids), finding the folder by walking up or by configuration, and
// the generated JSON Schema.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findTopicsFolder,
  loadProjectTopics,
  loadTopicFolder,
  parseTopicDefinition,
  TOPIC_FIELD_TYPES,
  TOPIC_RULES,
  type TopicProblem,
} from '../../src/core/topics';
import { topicDefinitionJsonSchema } from '../../src/core/topics/topicJsonSchema';

const fixtures = join(__dirname, '../../../test/fixtures/topics');

function marked(text: string, problem: TopicProblem): string {
  return text.slice(problem.offset, problem.offset + problem.length);
}

describe('topic definition files', () => {
  it('parses the example definition with every type', () => {
    const parsed = parseTopicDefinition(readFileSync(join(fixtures, 'project/spot-topics/7.topic.json'), 'utf8'));
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.definition?.topic_id, 7);
    assert.deepEqual(new Set(Object.values(parsed.definition!.fields).map((field) => field.type)), new Set(TOPIC_FIELD_TYPES));
  });

  it('places each schema problem of a broken definition on its characters, and gives no definition', () => {
    const text = readFileSync(join(fixtures, 'broken/spot-topics/d-schema.topic.json'), 'utf8');
    const parsed = parseTopicDefinition(text);
    assert.equal(parsed.definition, undefined);
    const seen = parsed.problems.map((problem) => [problem.rule, marked(text, problem), problem.message]);
    assert.deepEqual(seen, [
      [TOPIC_RULES.definitionSchema, '"10"', 'topic_id must be a number.'],
      [TOPIC_RULES.definitionSchema, '"colour"', `fields.fld_10_1.type must be one of ${TOPIC_FIELD_TYPES.join(', ')}.`],
      [TOPIC_RULES.definitionSchema, '"maxLenght"', 'maxLenght is not a member of a field.'],
      [TOPIC_RULES.definitionSchema, '"fld_10_3"', 'fields.fld_10_3.label is required.'],
      [TOPIC_RULES.definitionRule, '"minimum"', 'minimum (5) is larger than maximum (1).'],
      [TOPIC_RULES.definitionRule, '"state"', 'state is a spot member, not a topic field; remove it from fields.'],
    ]);
    for (const problem of parsed.problems) assert.equal(problem.severity, 'error');
  });

  it('reports broken JSON at the syntax error', () => {
    const text = readFileSync(join(fixtures, 'broken/spot-topics/c-syntax.topic.json'), 'utf8');
    const parsed = parseTopicDefinition(text);
    assert.equal(parsed.definition, undefined);
    assert.ok(parsed.problems.length >= 1);
    assert.equal(parsed.problems[0].rule, TOPIC_RULES.definitionSyntax);
    assert.match(parsed.problems[0].message, /^Not valid JSON: comma expected\.$/);
    assert.equal(marked(text, parsed.problems[0]), '"type"');
    assert.equal(parseTopicDefinition('').problems[0].rule, TOPIC_RULES.definitionSyntax);
  });

  it('reports a missing type, category values that are empty and members unknown at the top', () => {
    const text = JSON.stringify({ topic_id: 1, colour: 'x', fields: { a: { label: 'A' }, b: { label: 'B', type: 'category', values: {} } } }, null, 2);
    const messages = parseTopicDefinition(text).problems.map((problem) => `${marked(text, problem)} ${problem.message}`);
    assert.deepEqual(
      messages.sort(),
      [
        `"colour" colour is not a member of a topic definition.`,
        `"a" fields.a.type is required: one of ${TOPIC_FIELD_TYPES.join(', ')}.`,
        '{ values must name at least one category.',
      ].sort(),
    );
  });

  it('loads a folder: broken files reported and skipped, a duplicate topic_id reported on the later file', async () => {
    const set = await loadTopicFolder(join(fixtures, 'broken/spot-topics'));
    assert.deepEqual(
      [...set.catalog.keys()].sort((a, b) => a - b),
      [7, 11],
    );
    assert.equal(set.catalog.get(7)?.name, 'Trail observations');
    const byName = new Map(set.files.map((file) => [file.path.replace(/^.*[\\/]/, ''), file]));
    assert.deepEqual([...byName.keys()], ['a-valid.topic.json', 'b-duplicate.topic.json', 'c-syntax.topic.json', 'd-schema.topic.json', 'e-valid.topic.json']);
    assert.deepEqual(byName.get('a-valid.topic.json')?.problems, []);
    const duplicate = byName.get('b-duplicate.topic.json')!;
    assert.equal(duplicate.definition, undefined);
    assert.deepEqual(
      duplicate.problems.map((problem) => [problem.rule, problem.message]),
      [[TOPIC_RULES.duplicateTopic, 'topic_id 7 is already defined in a-valid.topic.json; this file is not used.']],
    );
    const text = readFileSync(duplicate.path, 'utf8');
    assert.equal(marked(text, duplicate.problems[0]), '7');
    assert.equal(byName.get('c-syntax.topic.json')?.definition, undefined);
    assert.ok(byName.get('d-schema.topic.json')!.problems.length > 0);
  });

  it('a folder that does not exist holds no definitions', async () => {
    const set = await loadTopicFolder(join(fixtures, 'no-such-folder'));
    assert.equal(set.catalog.size, 0);
    assert.deepEqual(set.files, []);
  });

  describe('finding the folder', () => {
    let scratch: string;
    beforeEach(() => {
      scratch = mkdtempSync(join(tmpdir(), 'spot-topics-test-'));
    });
    afterEach(() => rmSync(scratch, { recursive: true, force: true }));

    it('walks up from the current folder to the nearest spot-topics/', async () => {
      assert.equal(await findTopicsFolder(join(fixtures, 'project/spots')), join(fixtures, 'project/spot-topics'));
      const project = await loadProjectTopics(join(fixtures, 'project/spots'));
      assert.equal(project.folder, join(fixtures, 'project/spot-topics'));
      assert.deepEqual(
        [...project.catalog.keys()].sort((a, b) => a - b),
        [7, 8],
      );
    });

    it('honours a configured folder, relative to the configuration file', async () => {
      mkdirSync(join(scratch, 'defs'));
      mkdirSync(join(scratch, 'deep/er'), { recursive: true });
      writeFileSync(join(scratch, 'defs/5.topic.json'), JSON.stringify({ topic_id: 5, fields: {} }));
      // The configured folder wins over a spot-topics/ on the way up.
      mkdirSync(join(scratch, 'deep/spot-topics'));
      const options = { topicsFolder: 'defs', configDir: scratch };
      assert.equal(await findTopicsFolder(join(scratch, 'deep/er'), options), join(scratch, 'defs'));
      const project = await loadProjectTopics(join(scratch, 'deep/er'), options);
      assert.deepEqual([...project.catalog.keys()], [5]);
      assert.equal(await findTopicsFolder(join(scratch, 'deep/er')), join(scratch, 'deep/spot-topics'));
    });

    it('a configured folder that does not exist is an error; no spot-topics/ at all is no definitions', async () => {
      await assert.rejects(loadProjectTopics(scratch, { topicsFolder: 'missing' }), /The topics folder .*missing \(topicsFolder\) does not exist/);
      const none = await loadProjectTopics(scratch);
      assert.equal(none.catalog.size, 0);
    });
  });

  it('generates a JSON Schema that names every type and refuses unknown members', () => {
    const schema = topicDefinitionJsonSchema() as {
      properties: Record<string, { additionalProperties?: { oneOf?: Array<{ properties: { type: { const: string } }; additionalProperties: boolean }> } }>;
      required: string[];
      additionalProperties: boolean;
    };
    assert.deepEqual(schema.required.sort(), ['fields', 'topic_id']);
    assert.equal(schema.additionalProperties, false);
    const variants = schema.properties.fields.additionalProperties!.oneOf!;
    assert.deepEqual(
      variants.map((variant) => variant.properties.type.const),
      [...TOPIC_FIELD_TYPES],
    );
    for (const variant of variants) assert.equal(variant.additionalProperties, false);
    JSON.stringify(schema);
  });
});
