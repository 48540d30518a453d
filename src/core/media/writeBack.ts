// Step 6, the default writer: the document on disk gets its gallery ids and final state, written
// atomically in place, and only if it still holds what was read (a file changed meanwhile is left
// alone; the journal keeps what it should say).
import { promises as fs } from 'node:fs';
import { writeFileAtomic } from './atomicFile';
import type { SpotWriter } from './types';

export const writeSpotFileInPlace: SpotWriter = async ({ path, originalText, text }) => {
  // The real file behind a link is replaced, not the link.
  const target = await fs.realpath(path).catch(() => path);
  let current: string;
  try {
    current = await fs.readFile(target, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'changed';
    throw error;
  }
  if (current !== originalText) return 'changed';
  const { mode } = await fs.stat(target);
  await writeFileAtomic(target, text, { mode: mode & 0o7777 });
  return 'written';
};
