// The proposed topic and its notes: the topic whose labels head the most columns, and the others
// that head as many named in words that fit one topic or several.
import * as assert from 'node:assert/strict';
import { guessTopic } from '../../src/core/rows/mapping/guessTopic';
import type { TopicCatalog, TopicDefinition } from '../../src/core/topics/topicSchema';

function topic(topic_id: number, labels: string[]): TopicDefinition {
  const fields = Object.fromEntries(labels.map((label, index) => [`fld_${topic_id}_${index + 1}`, { type: 'text', label }]));
  return { topic_id, name: `Topic ${topic_id}`, fields } as unknown as TopicDefinition;
}

describe('rows: the proposed topic', () => {
  it('names one other topic that heads as many columns in the singular, several in the plural', () => {
    const columns = ['id', 'Species', 'Height'];
    const two: TopicCatalog = new Map([
      [7, topic(7, ['Species', 'Height'])],
      [9, topic(9, ['Species', 'Height'])],
    ]);
    assert.deepEqual(guessTopic(two, columns).notes.slice(1), ['topic_id: topic 9 matches as many columns (2): check it is the one meant']);
    const three: TopicCatalog = new Map([...two, [11, topic(11, ['Height', 'Species'])]]);
    assert.deepEqual(guessTopic(three, columns).notes.slice(1), ['topic_id: topics 9, 11 match as many columns (2): check it is the one meant']);
  });
});
