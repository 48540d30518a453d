// Lint: the usual TypeScript rules, plus the one boundary that keeps the core reusable:
// nothing under src/core or src/sandbox may import 'vscode'.
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        { name: 'vscode', message: 'src/core and src/sandbox must not depend on VS Code; pass what you need in.' },
        // Classic zod is for generating the editor schemas at build time; at run time it would
        // double the bundles (see src/core/api/zod.ts).
        { name: 'zod', message: "Import zod/mini through src/core/api/zod.ts; classic 'zod' only in jsonSchema.ts (build time)." },
      ],
    },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
      message: 'src/core and src/sandbox must not depend on VS Code.',
    },
  ],
};

// In the code that runs per spot, per row, per file or per request: no object literal that spreads
// first and then names members (`{ ...options, layout }`). V8 makes each such object a shape of its
// own at every call, about 0.4 µs per member; withMembers (src/core/objects/withMembers.ts) builds
// the same object through Object.assign. It cost 4.5 µs per spot of a bulk import (bench (a)).
const perSpotCode = [
  'src/core/media/**',
  'src/core/upload/**',
  'src/core/import/**',
  'src/core/journal/**',
  'src/core/documents/**',
  'src/core/rows/**',
  'src/core/api/**',
];
const spreadThenMembers = {
  selector: 'ObjectExpression > SpreadElement:first-child + Property',
  message:
    'A literal that spreads first and then names members is slow in V8 (a new shape at every call): use withMembers(base, { … }) from src/core/objects/withMembers.ts.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'artifacts/**', 'schemas/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  { files: ['src/core/**', 'src/sandbox/**'], rules: noVscode },
  // The same files' rule list again with the per-spot one added (a later entry replaces a rule).
  { files: perSpotCode, rules: { 'no-restricted-syntax': [...noVscode['no-restricted-syntax'], spreadThenMembers] } },
  // The build-time schema generator is the one place classic zod is meant to be.
  {
    files: ['src/core/api/jsonSchema.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core must not depend on VS Code.' }] }] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' } },
  },
);
