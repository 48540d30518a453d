// What the commands report, independent of the output format. Every format (text, JSON lines,
// SARIF, GitHub workflow commands, JUnit) is written from these records; docs/cli-json.md
// documents their JSON form, field by field.
import type { PendingGallery } from '../../core';

/** A problem placed in a document: 1-based lines and columns (UTF-16 code units), end exclusive. */
export interface Finding {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  /** JSON pointer of the member concerned ("" for the whole document). */
  pointer: string;
  severity: 'error' | 'warning';
}

export type OutcomeStatus =
  // validate
  | 'valid'
  | 'invalid'
  // import
  | 'imported'
  | 'alreadyImported'
  | 'wouldImport'
  | 'failed'
  | 'notAttempted'
  // upload
  | 'uploaded';

/** One file's result: a document checked, a spot imported, a media file uploaded. */
export interface Outcome {
  /** The file as the user named it: relative to the current folder when inside it. */
  file: string;
  status: OutcomeStatus;
  /** False for invalid, failed and notAttempted. */
  ok: boolean;
  /** Why it failed or was not attempted; absent when ok. */
  reason?: string;
  /** What kind of failure: the file could not be read, the document breaks a rule, the service refused or could not be reached. */
  failure?: 'unreadable' | 'document' | 'service';
  /** Located problems of the document, when it has some. */
  findings: Finding[];
  /** Import: what the service answered. */
  spot?: { sourceId: string; spotId?: number; state?: number; pendingGalleries: PendingGallery[] };
  /** Upload: what was sent and where. */
  upload?: { galleryId: number; fileName: string; mimeType: string; bytes: number; mediaId?: number };
}

export type CommandName = 'validate' | 'import' | 'upload';

/** The end of a run: counts by status, and why it stopped early when it did. */
export interface RunSummary {
  command: CommandName;
  total: number;
  counts: Partial<Record<OutcomeStatus, number>>;
  /** Set when the run ended early. */
  stopped?: 'interrupted' | 'credentialsRejected';
  /** The one line that says how the run ended, and what a second run would do. */
  message: string;
  exitCode: number;
  durationMs: number;
}
