// The contract between `spot-import import` and what imports: the engine over documents
// (workflowRunner.ts) or over a table's rows (rowsRunner.ts). The command parses flags,
// connects, finds the documents, prints and picks the exit code; a runner only imports and
// reports each outcome.
import type { JournalAccounts, RunStopKind, ServiceClient, ServiceError } from '../../core';
import type { ResolvedMapping, SourceTable } from '../../core/rows';
import type { DocumentRules } from '../documents/documentRules';
import type { Outcome } from '../output/records';

/** Whose data the journal describes. */
interface JournalTarget {
  /** The service: its base URL, or the built-in sandbox's data folder (its port changes every run). */
  service: string;
  apiVersion: string;
  clientId: string;
}

interface MediaOptions {
  /** False with --no-media: documents only; their pending galleries stay pending. */
  upload: boolean;
  /** False with --no-write-back: leave the documents as they are (no gallery ids or state written into them). */
  writeBack: boolean;
  /** True with --keep-in-progress: after the media, leave the spot in state 2 (no final import with state 1). */
  keepInProgress: boolean;
  /** True with --refresh-downloads: photos given by web address are asked for again (see PhotoFetcher's refresh). */
  refreshDownloads: boolean;
  /** The environment variables a table's mapping may send as photo logins (--photo-login). */
  photoLogins: readonly string[];
  /** MIME types (or families, image/*) a gallery accepts: "media.acceptedTypes" of spot-import.json. */
  acceptedTypes?: readonly string[];
}

export interface ImportJob {
  /** Absolute paths of the documents, in order; each is read when its turn comes. */
  files: readonly string[];
  /** Instead of documents: the rows of one table, with its mapping (rowsRunner.ts). */
  rows?: { table: SourceTable; mapping: ResolvedMapping };
  /** By the index of `files`: true for a document known to have no media folder beside it (the folder walk listed none), not looked for again. */
  withoutMediaFolder?: readonly boolean[];
  /** How outcomes name a file (relative to the current folder when inside it). */
  display(path: string): string;
  /** Absent only for a dry run, which sends nothing. */
  client?: ServiceClient;
  /** Documents in flight at once, 1 to 16. */
  concurrency: number;
  /** The project's topic and topic definitions: a document that breaks one of their error rules is not sent. */
  rules: DocumentRules;
  /** Check everything, send nothing. */
  dryRun: boolean;
  media: MediaOptions;
  /** Where the journal is kept (.spot-import/ in the current folder). */
  journalDir: string;
  /** The process's open journal accounts (disposed when the command ends). */
  journalAccounts: JournalAccounts;
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
  /** Why the run ended early, if it did (the engine's word; the journal's is a CliError instead). */
  stopped?: Exclude<RunStopKind, 'journal'>;
  /** The error that stopped it. */
  stopError?: ServiceError;
  /** Documents that a second run would still import (failed, interrupted or not attempted). */
  remaining: number;
}

export type ImportRunner = (job: ImportJob) => Promise<ImportRunEnd>;

/** A runner's report: each outcome to the job, with the progress bar's count and what a second run would still do. */
export class RunTally {
  done = 0;
  /** Outcomes that are not ok: failed, interrupted or not attempted. */
  remaining = 0;
  /** Bytes read so far (documents; a table's rows report none). */
  bytes = 0;

  constructor(private readonly job: Pick<ImportJob, 'report' | 'progress'>) {}

  readonly report = (outcome: Outcome): void => {
    if (!outcome.ok) this.remaining++;
    this.done++;
    this.job.report(outcome);
    this.job.progress({ done: this.done, bytes: this.bytes });
  };
}
