// zod as the core, the sandbox and the command line use it at run time: zod/mini, whose schemas
// are built from functions, so a bundle keeps only the parts it uses and loads much faster than
// classic zod (whose every schema carries every method). The checks are zod's own either way.
// zod/mini has no messages until a locale is configured (classic zod configures English when it
// is imported): with English configured here, the messages users see stay classic zod's.
// The editor JSON Schemas are generated at build time with full zod (jsonSchema.ts).
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from 'zod/mini';
