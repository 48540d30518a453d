// Step 6, the default writer: the document on disk gets its gallery ids and final state, written
// atomically in place, and only if it still holds what was read (a file changed meanwhile is left
// alone; the journal keeps what it should say). A file the engine read itself is known unchanged
// from its stats when they are what they were at the read (sameAsRead); any other is read again
// and compared. The new text is fsynced before it replaces the old; the rename is not waited for
// (a power cut may bring back the old text, which the next run writes again from the journal).
import { promises as fs } from 'node:fs';
import { sameAsRead } from '../documents/readDocument';
import { writeFileAtomic } from '../files/atomicFile';
import type { SpotWriter } from './types';

export const writeSpotFileInPlace: SpotWriter = async ({ path, originalText, text, stamp }) => {
  const stats = await fs.lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!stats) return 'changed';
  if (stamp && stats.isFile() && sameAsRead(stamp, stats)) {
    await writeFileAtomic(path, text, { mode: stamp.mode & 0o7777, syncFolder: false });
    return 'written';
  }
  // The real file behind a link is replaced, not the link.
  const target = stats.isSymbolicLink() ? await fs.realpath(path) : path;
  let handle;
  try {
    handle = await fs.open(target, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'changed';
    throw error;
  }
  let mode: number;
  try {
    mode = (await handle.stat()).mode;
    if ((await handle.readFile('utf8')) !== originalText) return 'changed';
  } finally {
    await handle.close();
  }
  await writeFileAtomic(target, text, { mode: mode & 0o7777, syncFolder: false });
  return 'written';
};
