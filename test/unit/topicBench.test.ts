// The topic bench's documents are what it claims (so its figure means something): a clean one
// with a value for every field, and one with a problem in every tenth field. No timing asserted.
import * as assert from 'node:assert/strict';
import { benchTopicCheck, topicBenchDefinition, topicBenchDocument } from '../../bench/topicCheck.bench';
import { checkSpotAgainstTopic, parseTopicDefinition } from '../../src/core/topics';

describe('topic check bench', () => {
  it('builds a valid 500-field definition and a document of the asked size with every field', () => {
    const definition = topicBenchDefinition(500);
    assert.deepEqual(parseTopicDefinition(JSON.stringify(definition)).problems, []);
    const text = topicBenchDocument(definition, 1024 * 1024, false);
    assert.ok(Math.abs(Buffer.byteLength(text) - 1024 * 1024) < 64 * 1024, `${Buffer.byteLength(text)} bytes`);
    const attributes = (JSON.parse(text) as { data: { attributes: Record<string, unknown> } }).data.attributes;
    for (const name of Object.keys(definition.fields)) assert.ok(name in attributes, name);
    assert.deepEqual(checkSpotAgainstTopic(text, new Map([[7, definition]])), []);
  });

  it('runs on a small document and counts one problem per tenth field', () => {
    const figures = benchTopicCheck(1, 64 * 1024, 50);
    assert.equal(figures.problems, 5);
    assert.ok(figures.cleanMedianMs >= 0 && figures.withProblemsMedianMs >= 0);
  });
});
