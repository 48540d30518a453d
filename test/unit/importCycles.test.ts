// No import circles in src/, type-only imports included: a circle means two modules that cannot
// be understood (or loaded) one without the other. TypeScript's own scanner reads the imports, so
// nothing has to be compiled or bundled for the check.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..', '..', 'src');

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
}

/** Every import circle, each as the list of files around it (relative to src/). */
export function importCycles(files: string[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    graph.set(
      file,
      info.importedFiles.map((imported) => resolveImport(file, imported.fileName)).filter((target): target is string => target !== undefined),
    );
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'visiting');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'visiting') cycles.push(stack.slice(stack.indexOf(next)).map((entry) => path.relative(ROOT, entry)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('import structure of src/', () => {
  it('has no import circles (type-only imports included)', () => {
    const files = sourceFiles(ROOT);
    assert.ok(files.length > 50, `found the sources (${files.length} files in ${ROOT})`);
    assert.deepEqual(importCycles(files), []);
  });
});
