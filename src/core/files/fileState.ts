// What tells one state of a file from another without reading it: the same file (device and
// inode), size, modification and change times. Any write changes the size or the change time
// (which no program sets back), and a file replaced by another (a save by rename, a compaction)
// has another inode. Whether times that close to a write can be trusted is the caller's to judge
// (see sameAsRead for documents, which an editor may rewrite in place at the same size).
import type { Stats } from 'node:fs';

export type FileState = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs' | 'ctimeMs'>;

export function fileStateOf(stats: FileState): FileState {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs };
}

export function sameFileState(a: FileState, b: FileState): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}
