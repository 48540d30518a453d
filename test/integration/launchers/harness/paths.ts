// Where things live: the repository root (found from this file, compiled or not), caches, artifacts.
import * as fs from 'fs';
import * as path from 'path';

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'esbuild.js'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root above ${start}`);
    dir = parent;
  }
}

export const repoRoot = findRepoRoot(__dirname);
/** Git-ignored cache of code-server installs, Node runtimes and per-run state (like @vscode/test-electron's). */
export const cacheRoot = process.env.SPOT_VSCODE_CACHE ? path.resolve(process.env.SPOT_VSCODE_CACHE) : path.join(repoRoot, '.vscode-test');
export const artifactsRoot = path.join(repoRoot, 'artifacts');
export const fixtureWorkspace = path.join(repoRoot, 'test', 'fixtures', 'workspace');

export function freshDir(dir: string): string {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
