// Spot documents in files as a source of a run: each read when the run takes it, so a run over
// 100,000 documents holds only the few in flight. The media folder beside each is the engine's
// to find, unless the caller already knows there is none.
import { readSpotDocument } from '../documents/readDocument';
import type { SpotInput, SpotSource } from './types';

export interface DocumentFilesOptions {
  /** How results name a document (default: its path). */
  label?: (path: string) => string;
  /** Documents known to have no media folder (a folder walk saw none): not looked for again. */
  withoutMediaFolder?: ReadonlySet<string>;
  /** Reads a document (default: the core's strict read, asynchronously). */
  read?: (path: string) => string | Promise<string>;
}

/** Spot documents as a source; their spots a plain iterable (a caller may wrap them one by one). */
export interface DocumentSource extends SpotSource {
  readonly total: number;
  spots(): Iterable<SpotInput>;
}

export function spotDocumentFiles(paths: readonly string[], options: DocumentFilesOptions = {}): DocumentSource {
  const read = options.read ?? readSpotDocument;
  return {
    total: paths.length,
    *spots(): Iterable<SpotInput> {
      for (const path of paths) {
        yield {
          path,
          ...(options.label ? { label: options.label(path) } : {}),
          read: () => read(path),
          ...(options.withoutMediaFolder?.has(path) ? { media: false as const } : {}),
        };
      }
    },
  };
}
