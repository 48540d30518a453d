// Import Folder: every spot document under a folder through the core's bulk import, in one
// cancellable progress notification (looking for documents, "n of N"). Whatever ends the run
// (done, cancelled, credentials rejected) the user gets a summary that says what was imported,
// what failed and why, and what was never attempted; picking a failure opens the file at the
// problem. Pending galleries of the imported spots are remembered for the Galleries view as the
// imports land (in batches), so a window closed or reloaded during a long run keeps them. When a
// document has a media folder beside it, the whole folder goes through the media workflow instead
// (importFolderWithMedia.ts), and the summary adds each spot's media.
import * as vscode from 'vscode';
import type * as Core from '../core';
import { isCancellation, required, withCancellableProgress } from '../platform/cancellation';
import { SHOW_LOG, UPDATE_CREDENTIALS } from '../platform/errorActions';
import { describeError, isAuthenticationError } from '../platform/errors';
import type { ExtensionServices } from '../platform/services';
import { profileLabel, type KnownGallery, type Profile } from '../platform/domain';
import { readSettings } from '../platform/settings';
import { activeProfile, startingMessage } from './activeProfile';
import { DEFAULT_LIMITS, findSpotFiles, spotFileItems, type SearchLimits } from './findSpotFiles';
import { importKind, rememberImported, type ImportKind } from './importedSources';
import { anyHasMedia, pickSpot, reasonOf, runMediaFolder, stoppedOf, type MediaFolderRun } from './importFolderWithMedia';
import { pendingAsKnown } from './importResultActions';
import { wasImported } from './mediaRun';
import { openAtProblem } from './spotTarget';
import { COMMAND } from '../platform/commandIds';
import { topicCatalogFor } from '../documents/spotDiagnostics';

export const SHOW_FAILURES = 'Show Failures';
export const SHOW_DETAILS = 'Show Details';

export interface FolderImportSummary {
  /** The folder as the messages name it. */
  folder: string;
  /** Documents found (and so attempted or not). */
  total: number;
  /** kind: new to this profile, or an update; media: for a run with media, what its galleries got. */
  imported: Array<{ file: string; sourceId: string; spotId: number; kind?: ImportKind; media?: { uploaded: number; skipped: number } }>;
  /** Files that were tried and failed for a reason of their own (document problems, server errors). */
  failed: Array<{ file: string; reason: string }>;
  /** Files the run did not import because it stopped first (including any in flight when it stopped). */
  notAttempted: string[];
  /** Why the run ended early, if it did. */
  stopped?: 'cancelled' | 'credentialsRejected';
  /** The search stopped at its limit: the folder may hold more spot documents than were imported. */
  truncated: boolean;
  /** The one-line account the user was shown. */
  headline: string;
  /** Set when the run went through the media workflow: every spot's outcome. */
  media?: MediaFolderRun;
}

export interface FolderImportOptions {
  /** Cancels as the notification's Cancel button does (tests; callers with their own cancel). */
  signal?: AbortSignal;
  /** Told about each finished document (tests use it to cancel part-way). */
  onItemDone?: (done: number, total: number, last: Core.BulkItemResult) => void;
  /** Lower search limits (tests). */
  limits?: SearchLimits;
  /** How often pending galleries are written while the run goes on (tests). */
  recordEvery?: Partial<RecordEvery>;
  /** Told of every media workflow event when the folder has media (tests cancel part-way with it). */
  onMediaProgress?: (event: Core.WorkflowProgress) => void;
}

export interface RecordEvery {
  /** Write once this many galleries wait. */
  galleries: number;
  /** Write at most this long after the first gallery that waits. */
  ms: number;
}

/** One globalState write per 25 galleries or per second, whichever comes first. */
export const DEFAULT_RECORD_EVERY: RecordEvery = { galleries: 25, ms: 1000 };

type Failure = Extract<Core.BulkItemResult, { ok: false }>;

async function chooseFolder(services: ExtensionServices, arg: unknown): Promise<vscode.Uri> {
  if (arg instanceof vscode.Uri) return arg;
  const picked = required(await services.ui.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Import Spots',
    title: 'Import every spot document under this folder',
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  }));
  return required(picked[0]);
}

/** The command (Explorer passes the folder's Uri; the palette asks for one). */
export function importFolder(services: ExtensionServices, target?: unknown): Promise<FolderImportSummary | undefined> {
  return runFolderImport(services, target, {});
}

/** undefined: nothing to import, or cancelled before anything was sent. */
export async function runFolderImport(services: ExtensionServices, target: unknown, options: FolderImportOptions): Promise<FolderImportSummary | undefined> {
  const folder = await chooseFolder(services, target);
  const folderName = vscode.workspace.asRelativePath(folder, false) || folder.path.split('/').pop() || folder.path;
  const profile = await activeProfile(services);
  const label = profileLabel(profile);
  const core = await services.core();

  const run = await withCancellableProgress({ title: `Importing spot documents from ${folderName} to ${label}`, signal: options.signal }, async (progress, signal) => {
    progress.report({ message: 'Looking for spot documents…' });
    const found = await findSpotFiles(core, folder, {
      signal,
      log: services.log,
      limits: options.limits,
      onFound: (count) => progress.report({ message: `Looking for spot documents… ${count} found` }),
    });
    if (found.uris.length === 0) return { found };
    const starting = startingMessage(profile);
    if (starting) progress.report({ message: starting });
    const { client } = await services.clients.clientFor(profile.id);
    if (await anyHasMedia(core, found.uris, signal)) {
      return { found, media: await runMediaFolder(services, core, { folder, uris: found.uris, profile, client, signal, progress, onProgress: options.onMediaProgress }) };
    }
    const items = spotFileItems(core, found.uris);
    const total = items.length;
    progress.report({ message: `0 of ${total}` });
    const recorder = new PendingGalleryRecorder(services, profile, { ...DEFAULT_RECORD_EVERY, ...options.recordEvery });
    const uriOf = new Map(items.map((item) => [item.label, item.uri.toString()]));
    // New or updated is known before the source id is recorded, at the end of the run.
    const kinds = new Map<string, ImportKind>();
    const outcome = await core.bulkImport(items, client, {
      concurrency: readSettings().bulkConcurrency,
      topics: await topicCatalogFor(folder),
      signal,
      onProgress: (done, count, last) => {
        if (last.ok) {
          kinds.set(last.label, importKind(services, profile.id, last.sourceId));
          recorder.add(pendingAsKnown(last.result, last.sourceId, uriOf.get(last.label)));
        }
        progress.report({ message: `${done} of ${count}`, increment: 100 / count });
        options.onItemDone?.(done, count, last);
      },
    }).finally(() => recorder.flush());
    await rememberImported(services, profile.id, outcome.results.flatMap((result) => (result.ok ? [result.sourceId] : [])));
    return { found, items, outcome, kinds };
  }).then(undefined, (error: unknown) => {
    // Cancelled while looking or while the client started: nothing was sent.
    if (!isCancellation(error)) throw error;
    services.log.info('import', `folder ${folderName}: cancelled before anything was sent`);
    void services.ui.showWarningMessage(`Import of ${folderName} cancelled before anything was sent.`, {});
    return undefined;
  });
  if (!run) return undefined;
  if ('media' in run && run.media) return reportMediaRun(services, profile, folderName, label, run.media, run.found.truncated ? options.limits ?? DEFAULT_LIMITS : undefined);
  if (!('outcome' in run) || !run.outcome) {
    void services.ui.showInformationMessage(`No spot documents under ${folderName}: they are *.spot.json files, or .json files whose data.type is "spots".`);
    return undefined;
  }

  const { outcome, items, found, kinds } = run;
  const summary = summarize(folderName, label, outcome, found.truncated ? options.limits ?? DEFAULT_LIMITS : undefined);
  for (const entry of summary.imported) entry.kind = kinds.get(entry.file);
  services.log.info('import', `folder ${folderName}: ${summary.headline}`, { failed: summary.failed, notAttempted: summary.notAttempted.length });

  const byLabel = new Map(items.map((item) => [item.label, item.uri]));
  const failedFiles = new Set(summary.failed.map((failed) => failed.file));
  const failures = outcome.results.filter((result): result is Failure => !result.ok && failedFiles.has(result.label));
  const showFailures = () => pickFailure(services, summary.headline, failures, byLabel);
  const failuresButton = failures.length > 0 ? [SHOW_FAILURES] : [];

  if (summary.stopped === 'credentialsRejected') {
    const message = `${summary.headline}. ${describeError(outcome.stoppedBy)}`;
    followUp(services, services.ui.showErrorMessage(message, ...failuresButton, UPDATE_CREDENTIALS, SHOW_LOG), async (choice) => {
      if (choice === SHOW_FAILURES) await showFailures();
      else if (choice === UPDATE_CREDENTIALS) await vscode.commands.executeCommand(COMMAND.setCredentials, profile.id);
      else if (choice === SHOW_LOG) services.log.show();
    });
  } else if (summary.stopped === 'cancelled') {
    const message = `${summary.headline}. What was imported stays imported; importing the folder again updates those spots and sends the rest.`;
    followUp(services, services.ui.showWarningMessage(message, {}, ...failuresButton), async (choice) => {
      if (choice === SHOW_FAILURES) await showFailures();
    });
  } else if (failures.length > 0) {
    await showFailures();
  } else if (summary.truncated) {
    void services.ui.showWarningMessage(`${summary.headline}.`, {});
  } else {
    void services.ui.showInformationMessage(`${summary.headline}.`);
  }
  return summary;
}

/** The summary of a run through the media workflow, and its message. */
async function reportMediaRun(services: ExtensionServices, profile: Profile, folderName: string, label: string, run: MediaFolderRun, truncatedAt: SearchLimits | undefined): Promise<FolderImportSummary> {
  const { outcome } = run;
  const stopped = stoppedOf(outcome);
  const summary: FolderImportSummary = { folder: folderName, total: outcome.spots.length, imported: [], failed: [], notAttempted: [], stopped, truncated: truncatedAt !== undefined, headline: '', media: run };
  for (const spot of outcome.spots) {
    const uploaded = spot.galleries.reduce((sum, gallery) => sum + gallery.uploaded + gallery.resolved, 0);
    const skipped = spot.galleries.reduce((sum, gallery) => sum + gallery.skipped, 0);
    if (spot.status === 'done' && spot.spotId !== undefined) {
      summary.imported.push({ file: spot.label, sourceId: spot.sourceId ?? spot.label, spotId: spot.spotId, kind: run.kinds.get(spot), media: { uploaded, skipped } });
    } else if (spot.status === 'not-started' || (spot.status === 'cancelled' && stopped)) {
      summary.notAttempted.push(spot.label);
    } else {
      summary.failed.push({ file: spot.label, reason: reasonOf(spot) });
    }
  }
  const { totals } = outcome;
  const imported = summary.imported.length;
  const media = `${totals.uploaded + totals.resolved} media uploaded, ${totals.skipped} already there`;
  // A spot the stop caught part-way is in notAttempted (as in the plain run), but the headline
  // counts it once, as imported but not finished, so the counts add up to the total.
  const notAttempted = new Set(summary.notAttempted);
  const partly = outcome.spots.filter((spot) => notAttempted.has(spot.label) && wasImported(spot)).length;
  const untouched = summary.notAttempted.length - partly;
  const counts = [
    ...(summary.failed.length > 0 ? [`${summary.failed.length} failed`] : []),
    ...(untouched > 0 ? [`${untouched} not attempted`] : []),
  ];
  const tail = counts.length > 0 ? `; ${counts.join('; ')}` : '';
  const limit = truncatedAt ? ` — but ${folderName} holds more than one run takes, so some documents were not looked at: import its subfolders one by one` : '';
  const partlyText = partly > 0 ? `; ${partly} imported but not finished` : '';
  if (stopped === 'credentialsRejected') summary.headline = `Stopped: credentials rejected — imported ${imported} of ${summary.total} spot documents from ${folderName} to ${label} (${media})${tail}${partlyText}`;
  else if (stopped === 'cancelled') summary.headline = `Cancelled: imported ${imported} of ${summary.total} spot documents from ${folderName} to ${label} (${media})${tail}${partlyText}`;
  else if (summary.failed.length === 0) summary.headline = `Imported ${truncatedAt ? '' : 'all '}${summary.total} spot documents from ${folderName} to ${label} (${media})${limit}`;
  else summary.headline = `Imported ${imported} of ${summary.total} spot documents to ${label} (${media})${tail}${limit}`;
  services.log.info('import', `folder ${folderName}: ${summary.headline}`, { failed: summary.failed, notAttempted: summary.notAttempted.length });

  const details = () => pickSpot(services, summary.headline, run);
  if (stopped === 'credentialsRejected') {
    followUp(services, services.ui.showErrorMessage(`${summary.headline}. ${describeError(outcome.stoppedBy)}`, SHOW_DETAILS, UPDATE_CREDENTIALS, SHOW_LOG), async (choice) => {
      if (choice === SHOW_DETAILS) await details();
      else if (choice === UPDATE_CREDENTIALS) await vscode.commands.executeCommand(COMMAND.setCredentials, profile.id);
      else if (choice === SHOW_LOG) services.log.show();
    });
  } else if (stopped === 'cancelled') {
    const message = `${summary.headline}. What was done stays done; importing the folder again finishes the rest (the journal in .spot-import remembers each step).`;
    followUp(services, services.ui.showWarningMessage(message, {}, SHOW_DETAILS), async (choice) => {
      if (choice === SHOW_DETAILS) await details();
    });
  } else if (summary.failed.length > 0) {
    await details();
  } else {
    const shown = summary.truncated ? services.ui.showWarningMessage(`${summary.headline}.`, {}, SHOW_DETAILS) : services.ui.showInformationMessage(`${summary.headline}.`, SHOW_DETAILS);
    followUp(services, shown, async (choice) => {
      if (choice === SHOW_DETAILS) await details();
    });
  }
  return summary;
}

/** `truncatedAt`: the limits the search stopped at, if it did. */
function summarize(folderName: string, label: string, outcome: Core.BulkImportOutcome, truncatedAt: SearchLimits | undefined): FolderImportSummary {
  const truncated = truncatedAt !== undefined;
  const stopped = !outcome.stoppedBy ? undefined : isAuthenticationError(outcome.stoppedBy) ? 'credentialsRejected' as const : 'cancelled' as const;
  const summary: FolderImportSummary = { folder: folderName, total: outcome.results.length, imported: [], failed: [], notAttempted: [], stopped, truncated, headline: '' };
  for (const result of outcome.results) {
    if (result.ok) summary.imported.push({ file: result.label, sourceId: result.sourceId, spotId: result.result.spotId });
    // In flight when the run stopped, or never reached: either way, not imported because of the stop.
    else if (result.notAttempted || (stopped && (isCancellation(result.error) || isAuthenticationError(result.error)))) summary.notAttempted.push(result.label);
    else summary.failed.push({ file: result.label, reason: result.reason });
  }
  const { total } = summary;
  const imported = summary.imported.length;
  const counts = [
    ...(summary.failed.length > 0 ? [`${summary.failed.length} failed`] : []),
    ...(summary.notAttempted.length > 0 ? [`${summary.notAttempted.length} not attempted`] : []),
  ];
  const tail = counts.length > 0 ? `; ${counts.join('; ')}` : '';
  const limit = truncated
    ? ` — but ${folderName} holds more than one run takes (${truncatedAt.files} spot documents or ${truncatedAt.candidates} JSON files), so some documents were not looked at: import its subfolders one by one`
    : '';
  if (stopped === 'credentialsRejected') {
    summary.headline = `Stopped: credentials rejected — imported ${imported} of ${total} spot documents from ${folderName} to ${label}${tail}`;
  } else if (stopped === 'cancelled') {
    const names = summary.imported.slice(0, 5).map((entry) => `"${entry.sourceId}"`).join(', ');
    const which = imported === 0 ? '' : ` (${names}${imported > 5 ? ` and ${imported - 5} more` : ''})`;
    summary.headline = `Cancelled: imported ${imported} of ${total} spot documents from ${folderName} to ${label}${which}${tail}`;
  } else if (summary.failed.length === 0) {
    summary.headline = `Imported ${truncated ? '' : 'all '}${total} spot documents from ${folderName} to ${label}${limit}`;
  } else {
    summary.headline = `Imported ${imported} of ${total} spot documents to ${label}${tail}${limit}`;
  }
  return summary;
}

/**
 * Remembers the pending galleries of a run as its imports land: in batches (a globalState write
 * per gallery would be one per file), written one after another so no batch overwrites another,
 * and a last flush when the run ends. The imports happened whatever the store does, so a failed
 * write is logged and the run goes on.
 */
class PendingGalleryRecorder {
  private waiting: KnownGallery[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly services: ExtensionServices,
    private readonly profile: Profile,
    private readonly every: RecordEvery,
  ) {}

  add(galleries: KnownGallery[]): void {
    if (galleries.length === 0) return;
    this.waiting.push(...galleries);
    if (this.waiting.length >= this.every.galleries) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.every.ms);
  }

  /** Writes what waits; resolves once every write asked for so far is done (never rejects). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length > 0) {
      this.writes = this.writes.then(() =>
        this.services.galleries.add(this.profile.id, batch).then(
          () => this.services.log.trace('import', `remembered ${batch.length} pending galleries for ${profileLabel(this.profile)}`),
          (error: unknown) => this.services.log.warn('import', `could not remember ${batch.length} pending galleries`, error),
        ),
      );
    }
    return this.writes;
  }
}

async function pickFailure(services: ExtensionServices, title: string, failures: Failure[], byLabel: Map<string, vscode.Uri>): Promise<void> {
  const picked = await services.ui.showQuickPick(
    failures.map((failure) => ({ label: `$(error) ${failure.label}`, detail: failure.reason, failure })),
    { title, placeHolder: 'Pick a failed file to open it at the problem', matchOnDetail: true },
  );
  const uri = picked && byLabel.get(picked.failure.label);
  if (!picked || !uri) return;
  const problem = picked.failure.problems?.[0];
  await openAtProblem(uri, problem?.offset ?? 0, problem?.length ?? 0);
}

/** A notification's button runs whenever it is clicked; the command has finished by then. */
function followUp(services: ExtensionServices, shown: Promise<string | undefined>, act: (choice: string | undefined) => Promise<void>): void {
  shown.then(act).catch((error: unknown) => services.log.warn('import', 'follow-up after Import Folder failed', error));
}
