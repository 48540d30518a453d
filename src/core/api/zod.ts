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
import { config, ZodMiniType, type ZodMiniObject } from 'zod/mini';
import { $constructor, $ZodObjectJIT, type $strip, type $ZodShape as SomeShape } from 'zod/v4/core';
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
  normalize,
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

/**
 * zod/mini's object with the compiled parse of zod's core ($ZodObjectJIT, classic zod's object):
 * the parse is generated once as code for the shape, where zod/mini's walks the members: the spot
 * document is checked for every spot of an import (docs/performance.md has the figures). The same
 * checks and messages (test/unit/compiledObject.test.ts); without code generation (a content
 * security policy, `jitless`), zod falls back to the walk.
 */
export const compiledObject = /* @__PURE__ */ (() => {
  const CompiledObject = $constructor('ZodMiniCompiledObject', (inst: ZodMiniObject, def: ZodMiniObject['_zod']['def']) => {
    $ZodObjectJIT.init(inst, def);
    ZodMiniType.init(inst, def);
  });
  // zod/mini's object's `shape` (KNOWN_SPOT_MEMBERS reads it), without importing zod's util whole:
  // on the prototype, as zod's installLazyProp puts it (an accessor of each instance would cost
  // the instance V8's fast properties). Not enumerable, and it must stay so: $constructor binds
  // every enumerable member of the prototype to each instance, which would call the getter there.
  Object.defineProperty(CompiledObject.prototype, 'shape', {
    configurable: true,
    get(this: ZodMiniObject) {
      return this._zod.def.shape;
    },
  });
  return <Shape extends SomeShape>(shape: Shape): ZodMiniObject<Shape, $strip> =>
    new CompiledObject({ type: 'object', shape }) as unknown as ZodMiniObject<Shape, $strip>;
})();
