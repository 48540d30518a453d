// zod as the core, the sandbox and the command line use it at run time: zod/mini, whose schemas
// are built from functions, so a bundle keeps only the parts it uses and loads much faster than
// classic zod (whose every schema carries every method). The checks are zod's own either way.
// zod/mini has no messages until a locale is configured (classic zod configures English when it
// is imported): with English configured here, the messages users see stay classic zod's.
// The editor JSON Schemas are generated at build time with full zod (jsonSchema.ts).
//
// Named exports, not `export * from 'zod/mini'`: dist/core.js hosts this module for the bundles
// loaded later (dist/coreRest.js, dist/rows.js, dist/sandbox.js: esbuild.js shares it), and a
// host keeps every name its shared module exports. zod/mini's whole namespace carries every
// locale; these names carry only what the core uses. A name the core needs next is added here.
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export {
  array,
  boolean,
  catchall,
  _default,
  discriminatedUnion,
  enum,
  extend,
  globalRegistry,
  gt,
  gte,
  int,
  length,
  literal,
  lte,
  minLength,
  number,
  object,
  optional,
  pipe,
  record,
  refine,
  regex,
  strictObject,
  string,
  transform,
  tuple,
  undefined,
  union,
  unknown,
} from 'zod/mini';
export type { core, infer, input, output, ZodMiniType } from 'zod/mini';
