// Step 6, the default writer: the document on disk gets its gallery ids and final state, written
// atomically in place, and only if it still holds what was read (a file changed meanwhile is left
// alone; the journal keeps what it should say). The new text is fsynced before it replaces the
// old; the rename is not waited for (a power cut may bring back the old text, which the next run
// writes again from the journal). The document is read and compared on this thread, as
// writeFileAtomic writes it: it is small (see MAX_DOCUMENT_BYTES).
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { writeFileAtomic } from './atomicFile';
import type { SpotWriter } from './types';

export const writeSpotFileInPlace: SpotWriter = async ({ path, originalText, text }) => {
  // The real file behind a link is replaced, not the link.
  const target = lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? realpathSync(path) : path;
  let fd;
  try {
    fd = openSync(target, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'changed';
    throw error;
  }
  let mode: number;
  try {
    mode = fstatSync(fd).mode;
    if (readFileSync(fd, 'utf8') !== originalText) return 'changed';
  } finally {
    closeSync(fd);
  }
  await writeFileAtomic(target, text, { mode: mode & 0o7777, syncFolder: false });
  return 'written';
};
