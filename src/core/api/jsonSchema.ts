// The editor JSON Schema, derived from the zod source so there is never a second copy to drift.
// Build time only (esbuild.js writes schemas/ with it; the core bundle does not carry it): full
// zod's generator, which reads the zod/mini schemas of the core like its own.
import * as z from 'zod';
import { spotDocumentSchema, spotTemplate } from './spotDocumentSchema';
import { withMembers } from '../objects/withMembers';

/** How every editor JSON Schema of the project is generated from its zod source. */
export function editorJsonSchema(source: z.core.$ZodType): Record<string, unknown> {
  return z.toJSONSchema(source, {
    io: 'input',
    target: 'draft-7',
    // A whole number as a number that is a multiple of 1: VS Code's JSON language service calls
    // 7.0 "Incorrect type" for "integer", while JSON (and the core) read it as 7.
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === 'integer') Object.assign(jsonSchema, { type: 'number', multipleOf: 1 });
    },
  }) as Record<string, unknown>;
}

export function spotDocumentJsonSchema(): Record<string, unknown> {
  const schema = editorJsonSchema(spotDocumentSchema);
  // VS Code's JSON language service offers these as completions in an empty document.
  schema.defaultSnippets = [
    {
      label: 'New spot',
      description: 'A spot import document with the required fields',
      body: spotTemplate('${1:my-source-id}', 1),
    },
    {
      label: 'New spot with a pending gallery',
      description: 'state 2 and one gallery field whose media are uploaded afterwards',
      body: {
        data: {
          type: 'spots',
          attributes: withMembers(spotTemplate('${1:my-source-id}', 1).data.attributes, { state: 2, fld_1_1: null }),
        },
      },
    },
  ];
  return schema;
}
