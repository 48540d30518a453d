// The public shape of the import engine (the media workflow: spot documents with or without
// media, one resumable run): what a front end (the extension, the command line) passes in and the
// typed outcome it gets back and renders. Nothing here knows VS Code.
import type { ServiceError } from '../api/errors';
import type { RetryPolicy } from '../api/retryPolicy';
import type { ServiceClient } from '../api/serviceClient';
import type { ParsedSpotText } from '../documents/parseSpotText';
import type { DocumentStamp } from '../documents/readDocument';
import type { SpotTextEdit } from '../documents/setSpotState';
import type { AccountTopic } from './importRules';
import type { TopicCatalog } from '../topics/topicSchema';
import type { CheckOptions, SpotMediaCheck, SpotProblem } from '../media/checkSpotMedia';
import type { JournalAccount } from '../journal/journal';
import type { JournalAccounts } from '../journal/journalAccounts';
import type { MediaLayout } from '../media/mediaLayout';
import type { RecordLogOptions } from '../journal/recordLog';
import type { UploadFailureKind } from '../upload/uploadFailure';

/**
 * One spot of a run: where it comes from, and whatever the caller already has of it. Spot
 * documents give their file; rows of a table will give the document a row stands for.
 */
export interface SpotInput {
  /** The document's file: the journal's note of it, its media folder, where the ids are written back. */
  path: string;
  /** How results and step lines name it (default: the path). */
  label?: string;
  /** The document as the caller sees it (an editor's buffer); else read() or the file is read. */
  text?: string;
  /** Reads the text when the run takes the spot (default: the file, by the core's strict read). */
  read?: () => string | Promise<string>;
  /** `text` as parseSpotText parsed it with the run's topics, when the caller has done so (not parsed again). */
  parsed?: ParsedSpotText;
  /** `text` checked with its media by the caller (the editor's check as shown): neither parsed nor hashed again. */
  check?: SpotMediaCheck;
  /** false: no media (the plain import); a layout: these media. Default: the folder beside the document. */
  media?: false | MediaLayout;
  /**
   * Problems the source found while making the document (a row's cell that is not a date): an
   * error refuses the spot as the engine's own checks do; they come back on the outcome.
   */
  problems?: SpotProblem[];
  /** The source's own note of where the spot came from (a row and its cells), handed back on the outcome. */
  origin?: unknown;
}

/**
 * Where a run's spots come from: spot documents (spotDocumentFiles, or an editor's buffer) are
 * one kind; rows of a table are another. The run takes the spots one at a time, as it needs them.
 */
export interface SpotSource {
  /** How many spots, when known before the run (progress says "n of N"). */
  readonly total?: number;
  spots(): Iterable<SpotInput> | AsyncIterable<SpotInput>;
}

/** What a writer is asked to do: replace `originalText` (what was read) with `text`. */
export interface WriteBackRequest {
  path: string;
  originalText: string;
  text: string;
  /** The same change as edits on originalText (one edit; jsonc-parser edits, formatting kept). */
  edits: SpotTextEdit[];
  /** What the file was when originalText was read from it, when the engine read it (see sameAsRead). */
  stamp?: DocumentStamp;
}

/** 'changed': the document is no longer `originalText`, so it was left alone. Throw for anything else. */
export type SpotWriter = (request: WriteBackRequest) => Promise<'written' | 'changed'>;

/** Where the journal is kept, and whose data it describes (another service or client id is another journal). */
export interface JournalOptions {
  /** e.g. defaultJournalDir(workspaceRoot) = `<root>/.spot-import`. */
  dir: string;
  /** journalAccountOf(client.apiRoot, clientId), or a key of the caller's (the built-in sandbox: its data folder). */
  account: JournalAccount;
  /** The front end's open accounts (one per window or process): runs sharing it share each account's lock and log. */
  accounts: JournalAccounts;
  /** When the log is compacted (tests make it small). */
  log?: RecordLogOptions;
}

/**
 * A check that sends nothing (checkSpots): the import's own preparation of every spot (read,
 * parse, the source_id rule, the document's and its media's checks), no journal, no request.
 */
export type ImportCheckOptions = Pick<
  ImportRunOptions,
  'concurrency' | 'acceptedTypes' | 'topics' | 'topic' | 'media' | 'describePath' | 'signal' | 'onProgress' | 'onStep'
>;

/** What the engine's steps read of the options: all but where the journal is (the run opens it). */
export type EngineOptions = Omit<ImportRunOptions, 'journal'>;

export interface ImportRunOptions {
  client: Pick<ServiceClient, 'importSpot' | 'getGallery' | 'uploadMedia' | 'setMediaOrder'>;
  journal: JournalOptions;
  /** Spots in flight at once (clampConcurrency: 1 to 16, default 4). Uploads into one gallery always go one at a time. */
  concurrency?: number;
  /** State of the final import: 1 active (default), 2 keeps the spot in progress. */
  finalState?: 1 | 2;
  /** Set each gallery's media order to the files' name order (default true). */
  setOrder?: boolean;
  /** MIME types or families (image/*) a gallery accepts (default DEFAULT_ACCEPTED_TYPES). */
  acceptedTypes?: readonly string[];
  /** Fetches a photo a table gives by its web address into the run's cache (see CheckOptions.fetchPhoto). */
  fetchPhoto?: CheckOptions['fetchPhoto'];
  /**
   * The topic definitions in effect (the extension's topics folder, the command line's --topics):
   * their errors refuse a document; a field a definition types as a gallery is one whatever its
   * value, and null in a field of another type is no gallery waiting for media. Without them a
   * fld_ member set to null is one.
   */
  topics?: TopicCatalog;
  /** The topic the account imports into: a document of another topic_id is refused (importRules.ts). */
  topic?: AccountTopic;
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
  /**
   * Skip the final (or plain) import when the journal says this exact text was imported (default
   * true: running again sends only what is not done). false: always send it (Import Spot).
   */
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
  onProgress?: (event: ImportProgress) => void;
  /** One line per step, for a log (no secrets: paths, ids, counts). */
  onStep?: (step: SpotStep) => void;
}

export type ImportProgress =
  /** Spot `index` (1-based, in the order started) of `total` has started. */
  | { kind: 'spot'; index: number; total: number; label: string }
  /** Bytes of the file being uploaded. */
  | { kind: 'bytes'; index: number; total: number; label: string; file: string; sentBytes: number; totalBytes: number }
  /** A spot has finished, whatever its outcome; `done` of `total` have. */
  | { kind: 'spotDone'; done: number; total: number; outcome: SpotOutcome };

export type StepName = 'check' | 'journal' | 'import-pending' | 'resolve' | 'upload' | 'order' | 'import-final' | 'import' | 'write-back' | 'skip' | 'stop';

export interface SpotStep {
  label: string;
  sourceId?: string;
  step: StepName;
  message: string;
}

/** A file that did not reach its gallery, typed for a front end to word and act on (its reason says it in words). */
export interface GalleryFileFailure {
  file: string;
  reason: string;
  /** The upload's failure (uploadFailure.ts); 'unclear': whether the gallery holds it cannot be told, so nothing more was sent. */
  kind: Exclude<UploadFailureKind, 'cancelled' | 'credentials'> | 'unclear';
  /** 'maybe': the service may have stored it (check the gallery before sending it again). */
  stored: 'no' | 'maybe';
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
  | 'not-started'
  /** A check that sends nothing (checkSpots) found no error: an import would send it. */
  | 'checked';

/** Why a run ended before its last spot. */
export type RunStopKind =
  /** The caller's signal (Cancel, Ctrl-C). */
  | 'cancelled'
  /** The service refused the credentials: every later spot would be refused too. */
  | 'credentials'
  /** The service could not be reached (after the client's retries): every later spot would fail alike. */
  | 'network'
  /** The account's journal could not be locked or opened (another process is using it): nothing was started. */
  | 'journal';

export interface RunStop {
  kind: RunStopKind;
  error: ServiceError;
}

/** Why a spot is not done, typed, for a front end to word and to act on (its reason says it in words). */
export type SpotFailureKind =
  /** The document could not be read (missing, too large, not UTF-8). */
  | 'unreadable'
  /** The document, its topic or its media break a rule (problems say where): nothing was sent. */
  | 'invalid'
  /** An earlier spot of the run has its source_id (a problem on it says so): nothing was sent. */
  | 'repeated-source-id'
  /** It names a gallery that another spot has: nothing was sent. */
  | 'gallery-taken'
  /** Not every file reached its gallery (the galleries say which and why). */
  | 'uploads'
  /** The credentials were refused (401), or may not do this (403). */
  | 'credentials'
  /** The service could not be reached, or did not answer in time. */
  | 'network'
  /** The service answered an error, or a reply the interface does not promise. */
  | 'service'
  /** The journal could not be read, written or locked. */
  | 'journal'
  /** Cancelled while it ran. */
  | 'cancelled'
  /** The run stopped before this spot began (`because` says why). */
  | 'not-started'
  /** A defect, not the service's doing. */
  | 'unexpected';

export interface SpotFailure {
  kind: SpotFailureKind;
  /** For not-started: why the run stopped first. */
  because?: RunStopKind;
}

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
  failed: GalleryFileFailure[];
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
  /** The input's origin, as the source gave it. */
  origin?: unknown;
  status: SpotStatus;
  /**
   * For a spot that is done: new (the journal knew no spot of this source_id before the run),
   * updated (it did), or unchanged (nothing was sent: the journal knew this text, its galleries
   * held every file, and their order was right).
   */
  change?: 'new' | 'updated' | 'unchanged';
  /** For a spot that is not done: why, typed. */
  failure?: SpotFailure;
  /** A request that changes something (an import, an upload, an order) went out for this spot. */
  sent: boolean;
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
  /** The text the problems' offsets are in, as it was checked (set when there are problems): the file may have changed since, by the write-back too. */
  checkedText?: string;
  writeBack: WriteBackOutcome;
  /** Why the spot is not done, in a person's words. */
  reason?: string;
  error?: ServiceError;
  /** What a second run will do for this spot (empty when done). */
  remaining: string[];
  /** The journal (the account's log) that holds the spot's record, when one was opened. */
  journalFile?: string;
}

export interface ImportOutcome {
  /** One per input, in input order. */
  spots: SpotOutcome[];
  /** Set when the run ended before its last spot; absent: it finished. */
  stop?: RunStop;
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
