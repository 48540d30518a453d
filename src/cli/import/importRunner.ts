// The contract between `spot-import import` and whatever imports the documents: today the
// documents-only runner (documentsOnly.ts, the core's bulk import); with media, the media
// workflow's runner, chosen in mediaPlugin.ts. The command parses flags, connects, finds the
// documents, prints and picks the exit code; a runner only imports and reports each outcome.
import type { ServiceClient, ServiceError } from '../../core';
import type { Outcome } from '../output/records';
import type { JournalTarget } from './journal';

export interface MediaOptions {
  /** False with --no-media: documents only; their pending galleries stay pending. */
  upload: boolean;
  /** False with --no-write-back: leave the documents as they are (no gallery ids or state written into them). */
  writeBack: boolean;
  /** True with --keep-in-progress: after the media, leave the spot in state 2 (no final import with state 1). */
  keepInProgress: boolean;
  /** The "media" object of spot-import.json (fileFieldName, and whatever else the media workflow reads). */
  settings: Record<string, unknown>;
}

export interface ImportJob {
  /** Absolute paths of the documents, in order; each is read when its turn comes. */
  files: readonly string[];
  /** How outcomes name a file (relative to the current folder when inside it). */
  display(path: string): string;
  /** Absent only for a dry run, which sends nothing. */
  client?: ServiceClient;
  /** Documents in flight at once, 1 to 16. */
  concurrency: number;
  /** The project's topic: a document with another topic_id is not sent. */
  topic?: number;
  /** Check everything, send nothing. */
  dryRun: boolean;
  media: MediaOptions;
  /** Where runners keep their journals (.spot-import/ in the current folder). */
  journalDir: string;
  /** Whose data the journal describes. */
  target: JournalTarget;
  /** stop: the first Ctrl-C (start nothing new); abort: the second (abort what is in flight). */
  signals: { stop: AbortSignal; abort: AbortSignal };
  /** Called once per document, as soon as its outcome is known. */
  report(outcome: Outcome): void;
  /** Documents finished so far and bytes read, for the progress bar. */
  progress(state: { done: number; bytes: number }): void;
  /** A line for the user on stderr (notes, warnings). */
  note(line: string): void;
}

export interface ImportRunEnd {
  /** Why the run ended early, if it did. */
  stopped?: 'interrupted' | 'credentialsRejected';
  /** The error that stopped it (credentials rejected). */
  stopError?: ServiceError;
  /** Documents that a second run would still import (failed or not attempted). */
  remaining: number;
  /** Documents the journal of this target now records as done, when one is kept. */
  journal?: { file: string; recorded: number };
}

export type ImportRunner = (job: ImportJob) => Promise<ImportRunEnd>;
