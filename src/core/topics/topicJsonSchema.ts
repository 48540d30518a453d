// The editor JSON Schema of topic definition files (spot-topics/*.topic.json), derived from the
// zod source like the spot document's, so completion and validation while writing a definition
// can never disagree with what the extension and the command line accept.
import { editorJsonSchema } from '../api/jsonSchema';
import { topicDefinitionSchema } from './topicSchema';

export function topicDefinitionJsonSchema(): Record<string, unknown> {
  const schema = editorJsonSchema(topicDefinitionSchema);
  schema.defaultSnippets = [
    {
      label: 'New topic definition',
      description: 'A topic with one category field',
      body: {
        topic_id: '^${1:7}',
        name: '${2:Topic name}',
        fields: { '${3:fld_7_1}': { label: '${4:Label}', type: 'category', values: { '1': '${5:First}' } } },
      },
    },
  ];
  return schema;
}
