// The public shape of the media workflow: what a front end (the extension, the command line)
// passes in and gets back. Nothing here knows VS Code.
import type { ServiceError } from '../api/errors';
import type { GalleryFieldCatalog } from '../api/spotSchema';
import type { RetryPolicy } from '../api/retryPolicy';
import type { ServiceClient } from '../api/serviceClient';
import type { ParsedSpotText } from '../documents/parseSpotText';
import type { SpotTextEdit } from '../documents/setSpotState';
import type { SpotProblem } from './checkSpotMedia';

/** One spot document to run: its path, and its text when the caller has it (an editor buffer). */
export interface SpotInput {
  path: string;
  /** The document as the caller sees it; read from `path` when absent. */
  text?: string;
  /** How results and step lines name it (default: the path). */
  label?: string;
  /** `text` as parseSpotText parsed it with the run's topics, when the caller has done so already (it is not parsed again). */
  parsed?: ParsedSpotText;
  /** false: the caller listed the document's folder and found no media folder beside it (not looked for again). */
  mediaFolder?: false;
}

/** What a writer is asked to do: replace `originalText` (what was read) with `text`. */
export interface WriteBackRequest {
  path: string;
  originalText: string;
  text: string;
  /** The same change as edits on originalText (one edit; jsonc-parser edits, formatting kept). */
  edits: SpotTextEdit[];
}

/** 'changed': the document is no longer `originalText`, so it was left alone. Throw for anything else. */
export type SpotWriter = (request: WriteBackRequest) => Promise<'written' | 'changed'>;

export interface MediaWorkflowOptions {
  client: Pick<ServiceClient, 'importSpot' | 'getGallery' | 'uploadMedia' | 'setMediaOrder' | 'apiRoot'>;
  /** The client id: with the service URL it keys the journal (another topic is another journal). */
  clientId: string;
  /** The journal folder, e.g. defaultJournalDir(workspaceRoot) = `<root>/.spot-import`. */
  journalDir: string;
  /** Spots in flight at once, 1 to 16 (default 4). Uploads into one gallery always go one at a time. */
  concurrency?: number;
  /** State of the final import: 1 active (default), 2 keeps the spot in progress. */
  finalState?: 1 | 2;
  /** Set each gallery's media order to the files' name order (default true). */
  setOrder?: boolean;
  /** MIME types or families (image/*) a gallery accepts (default DEFAULT_ACCEPTED_TYPES). */
  acceptedTypes?: readonly string[];
  /**
   * The topic definitions in effect (the extension's topics folder, the command line's --topics):
   * a field a definition types as a gallery is one whatever its value, and null in a field of
   * another type is no gallery waiting for media. Without them a fld_ member set to null is one.
   */
  topics?: GalleryFieldCatalog;
  /**
   * How the document gets its gallery ids and final state: default writeSpotFileInPlace (atomic,
   * formatting kept); a function of the caller's (the editor's undoable edit); false: not written,
   * the journal remembers them.
   */
  writeBack?: SpotWriter | false;
  /**
   * false: every document goes through the plain import, its media folder not looked at and its
   * gallery fields sent as they are (the command line's --no-media). Default true.
   */
  media?: boolean;
  /** Skip the final (or plain) import when the journal says this exact text was imported (default true). */
  skipUnchanged?: boolean;
  /**
   * How a message names another document of the run (the earlier one with the same source_id),
   * as the caller names its documents (the command line: relative to the current folder). Default: its path.
   */
  describePath?: (path: string) => string;
  /** Backoff for sending a file again after an upload that did not arrive (default: the client's defaults). */
  retry?: Partial<RetryPolicy>;
  /**
   * Cancels the run: nothing new is started and requests in flight are dropped, except an upload,
   * which finishes so its outcome is recorded (a dropped import or read is simply made again by
   * the next run).
   */
  signal?: AbortSignal;
  /**
   * Drops uploads in flight too (a second Ctrl-C on the command line): an upload cut off after
   * its announcement is settled by the next run from what its gallery holds.
   */
  abortSignal?: AbortSignal;
  onProgress?: (event: WorkflowProgress) => void;
  /** One line per step, for a log (no secrets: paths, ids, counts). */
  onStep?: (step: WorkflowStep) => void;
}

export type WorkflowProgress =
  /** Spot `index` (1-based, in the order started) of `total` has started. */
  | { kind: 'spot'; index: number; total: number; label: string }
  /** Bytes of the file being uploaded. */
  | { kind: 'bytes'; index: number; total: number; label: string; file: string; sentBytes: number; totalBytes: number }
  /** A spot has finished, whatever its outcome; `done` of `total` have. */
  | { kind: 'spotDone'; done: number; total: number; outcome: SpotOutcome };

export type StepName = 'check' | 'journal' | 'import-pending' | 'resolve' | 'upload' | 'order' | 'import-final' | 'import' | 'write-back' | 'skip' | 'stop';

export interface WorkflowStep {
  label: string;
  sourceId?: string;
  step: StepName;
  message: string;
}

export type SpotStatus =
  /** Everything the document asks for is on the service (and in the document or the journal). */
  | 'done'
  /** The checks found problems: nothing was sent. */
  | 'invalid'
  /** A step failed; `remaining` says what a second run will do. */
  | 'failed'
  /** Cancelled; `remaining` says what a second run will do. */
  | 'cancelled'
  /** The run stopped (cancelled, credentials refused) before this spot began. */
  | 'not-started';

export interface GalleryOutcome {
  field: string;
  galleryId?: number;
  /** Media files beside the document for this field. */
  files: number;
  /** Sent in this run. */
  uploaded: number;
  /** Sent by an earlier, interrupted run and found in the gallery now. */
  resolved: number;
  /** Already in the gallery (by the journal), not sent again. */
  skipped: number;
  failed: Array<{ file: string; reason: string }>;
  /** set: this run set it; already: it was in name order; off: ordering is turned off; kept: not touched (see reason); not-reached. */
  order: 'set' | 'already' | 'off' | 'kept' | 'not-reached';
  /** Media the gallery held when last read (undefined when not read in this run). */
  mediaInGallery?: number;
}

export interface WriteBackOutcome {
  /** written; unchanged (already said it); disabled (journal remembers); conflict (file changed since read); failed; not-reached. */
  status: 'written' | 'unchanged' | 'disabled' | 'conflict' | 'failed' | 'not-reached';
  reason?: string;
}

export interface SpotOutcome {
  label: string;
  path: string;
  status: SpotStatus;
  sourceId?: string;
  spotId?: number;
  /** The state the final import gave the spot (undefined when it was not reached). */
  state?: number;
  /** final: imported in this run; unchanged: the journal says this text was imported already; pending-only: only the state 2 import was sent; none. */
  imported: 'final' | 'unchanged' | 'pending-only' | 'none';
  /** False for a document without media: it went through the plain import. */
  withMedia: boolean;
  galleries: GalleryOutcome[];
  problems: SpotProblem[];
  writeBack: WriteBackOutcome;
  /** Why the spot is not done, in a person's words. */
  reason?: string;
  error?: ServiceError;
  /** What a second run will do for this spot (empty when done). */
  remaining: string[];
  /** The journal (the account's log) that holds the spot's record, when one was opened. */
  journalFile?: string;
}

export interface MediaWorkflowOutcome {
  /** One per input, in input order. */
  spots: SpotOutcome[];
  /** Set when the run ended early: cancelled, or the credentials were refused. */
  stoppedBy?: ServiceError;
  totals: {
    done: number;
    failed: number;
    invalid: number;
    cancelled: number;
    notStarted: number;
    uploaded: number;
    resolved: number;
    skipped: number;
  };
}
