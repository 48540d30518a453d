// The editor JSON Schema of mapping files (*.mapping.json), derived from the zod source the core
// parses them with, so completion and hovers while writing a mapping never disagree with what the
// extension and the command line accept. Build time only (esbuild.js writes schemas/).
import { editorJsonSchema } from '../../api/jsonSchema';
import { mappingSchema } from './mappingSchema';

export function mappingJsonSchema(): Record<string, unknown> {
  const schema = editorJsonSchema(mappingSchema);
  schema.defaultSnippets = [
    {
      label: 'New mapping',
      description: 'Rows of a CSV as spots: topic, source_id, coordinates, one field, photos',
      body: {
        topic_id: '^${1:7}',
        source_id: '${2:survey}-{${3:_uuid}}',
        latitude: '${4:_location_latitude}',
        longitude: '${5:_location_longitude}',
        fields: { '${6:fld_7_1}': '${7:Species}' },
        media: { '${8:fld_7_3}': { columns: ['${9:photo}'], folder: '${10:photos}' } },
      },
    },
  ];
  return schema;
}
