// Step 6, the default writer: the document on disk gets its gallery ids and final state, written
// atomically in place, and only if it still holds what was read (a file changed meanwhile is left
// alone; the journal keeps what it should say). The new text is fsynced before it replaces the
// old; the rename is not waited for (a power cut may bring back the old text, which the next run
// writes again from the journal).
import { promises as fs } from 'node:fs';
import { writeFileAtomic } from '../files/atomicFile';
import type { SpotWriter } from './types';

export const writeSpotFileInPlace: SpotWriter = async ({ path, originalText, text }) => {
  // The real file behind a link is replaced, not the link.
  const target = (await fs.lstat(path).catch(() => undefined))?.isSymbolicLink() ? await fs.realpath(path) : path;
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
