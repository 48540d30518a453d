// What the commands report, independent of the output format. Every format (text, JSON lines,
// SARIF, GitHub workflow commands, JUnit) is written from these records; docs/cli-json.md
// documents their JSON form, field by field.
import type { GalleryOutcome, PendingGallery } from '../../core';

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
  /** The rule that fired: a topic rule (topic.outOfRange), a base rule (spot.duplicateMember), or a fallback (spot.schema, spot.syntax, spot.media, spot.projectTopic). */
  rule: string;
  /** For a problem about a media file or folder: that file (shown like `file`); the line and column are still on the document. */
  mediaFile?: string;
  /** A cell of a table that is not text, as people name it: a workbook's ("Sheet1!C12"; line and column are its row and column), a shapefile's feature ("feature 12"). */
  cell?: string;
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
  /** Part of its work was done when the run was interrupted; a second run finishes it (`remaining`). */
  | 'interrupted'
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
  /** A topic definition file or a mapping file (their own problems), rather than a spot document. */
  kind?: 'topicDefinition' | 'mapping';
  /**
   * A row of a table (CSV, GeoJSON): its 1-based data row and the line it starts on; `cell`: how
   * the table names it when not by line, as its problems' cells are (feature 3, IMG_0003.jpg).
   */
  row?: { row: number; line: number; cell?: string };
  /** Import: what the service answered. */
  spot?: SpotRecord;
  /** Upload: what was sent and where. */
  upload?: { galleryId: number; fileName: string; mimeType: string; bytes: number; mediaId?: number };
}

/** What an import did for one spot. */
export interface SpotRecord {
  sourceId: string;
  spotId?: number;
  /** Imported: new (the journal knew no spot of this source_id before the run) or updated (it did). */
  change?: 'new' | 'updated';
  state?: number;
  /** Gallery fields the service created that have no media beside the document: still pending. */
  pendingGalleries: PendingGallery[];
  /** Galleries filled from the document's media folder, one per gallery field. */
  galleries?: GalleryRecord[];
  /** Whether the gallery ids and state were written into the document. */
  writeBack?: 'written' | 'unchanged' | 'disabled' | 'conflict' | 'failed' | 'not-reached';
  /** What a second run will do for this spot (failed or interrupted ones). */
  remaining?: string[];
}

/** A gallery in a JSON record (docs/cli-json.md): the workflow's outcome, less its read count. */
export type GalleryRecord = Omit<GalleryOutcome, 'mediaInGallery'>;

export type CommandName = 'validate' | 'import' | 'upload';

/** The end of a run: counts by status, and why it stopped early when it did. */
export interface RunSummary {
  command: CommandName;
  total: number;
  counts: Partial<Record<OutcomeStatus, number>>;
  /** Set when the run ended early. */
  stopped?: 'interrupted' | 'credentialsRejected' | 'serviceUnreachable';
  /** The one line that says how the run ended, and what a second run would do. */
  message: string;
  exitCode: number;
  durationMs: number;
}
