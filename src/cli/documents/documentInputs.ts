// The documents of a command as the import engine takes them, one at a time: each read when its
// turn comes, none after the first Ctrl-C, a document the folder walk saw without a media folder
// not looked at again (media: false). The same source for import, its dry run and validate.
import { readSpotDocumentSync, type SpotInput, type SpotSource } from '../../core';

export interface DocumentInputOptions {
  display: (path: string) => string;
  /** The first Ctrl-C: no document is taken after it. */
  stop: AbortSignal;
  /** By index: documents the folder walk found without a media folder. */
  withoutMediaFolder?: readonly boolean[];
  /** Told of each document's bytes as it is read (the progress bar). */
  onRead?: (bytes: number) => void;
  /** Told of each document taken (the engine reads a few ahead of the requests). */
  onTaken?: () => void;
}

/**
 * Synchronous reads: for a file of a few hundred bytes, a stat and a read straight from this thread
 * cost a fraction of five trips through libuv's thread pool (docs/performance.md). An iterator of
 * its own rather than a generator: every 64th document waits for the event loop's next turn
 * (Ctrl-C, the progress bar, stdout), which a run of documents that need no request would
 * otherwise never give it.
 */
export function documentInputs(files: readonly string[], options: DocumentInputOptions): SpotSource {
  const read = (path: string) => {
    const text = readSpotDocumentSync(path);
    options.onRead?.(Buffer.byteLength(text));
    return text;
  };
  return {
    total: files.length,
    spots: () => {
      let next = 0;
      const iterator: AsyncIterator<SpotInput> = {
        next() {
          if (next >= files.length || options.stop.aborted) return Promise.resolve({ done: true, value: undefined });
          const index = next++;
          const path = files[index];
          const input: SpotInput = { path, label: options.display(path), read: () => read(path) };
          if (options.withoutMediaFolder?.[index]) input.media = false;
          options.onTaken?.();
          const result = { done: false, value: input };
          if (index % 64 === 63) return new Promise((resolve) => setImmediate(() => resolve(result)));
          return Promise.resolve(result);
        },
      };
      return { [Symbol.asyncIterator]: () => iterator };
    },
  };
}
