// Import Spot with Media: the open document and the media folder beside it (walk.spot.json +
// walk.media/) in one resumable step, through the core's media workflow. Before anything is sent
// the document and every media file are checked and the problems shown on the document; then a
// cancellable notification says which file is on its way and how many bytes of it have gone.
// Whatever ends the run, the user is told what is done and what a second run will finish; the
// journal (.spot-import/) is what makes that second run pick up where this one stopped.
import * as vscode from 'vscode';
import type * as Core from '../core';
import { describeProblems } from '../core/documents/problemSummary';
import { checkSpotMediaNow, topicCatalogFor } from '../documents/spotDiagnostics';
import { documentOffset } from '../documents/spotDocuments';
import { isCancellation, required, withCancellableProgress } from '../platform/cancellation';
import { SHOW_LOG, UPDATE_CREDENTIALS, isRefusal } from '../platform/errorActions';
import { ActionableError } from '../platform/errors';
import type { ExtensionServices } from '../platform/services';
import { profileLabel } from '../platform/domain';
import { activeProfile, startingMessage } from './activeProfile';
import { describeImported } from './importedSources';
import { SHOW_IN_GALLERIES } from './importResultActions';
import { clientIdOf, describeGallery, describeRemaining, journalDirFor, kindsOf, recordRun, workflowOptions } from './mediaRun';
import { openAtProblem, spotTargetSpotDocument } from './spotTarget';
import { BUILT_IN_COMMAND, COMMAND } from '../platform/commandIds';

export interface ImportWithMediaOptions {
  /** Cancels as the notification's Cancel button does (tests; callers with their own cancel). */
  signal?: AbortSignal;
  /** Keep the spot in progress (state 2) for this run, whatever the setting says. */
  keepInProgress?: boolean;
  /** Told of every progress event (tests cancel part-way with it). */
  onProgress?: (event: Core.WorkflowProgress) => void;
}

/** The command: `target` is the document's Uri (CodeLens, menus) or absent (active editor). */
export function importSpotWithMedia(services: ExtensionServices, target?: unknown, options?: unknown): Promise<Core.SpotOutcome | undefined> {
  const keepInProgress = (options as { keepInProgress?: unknown } | undefined)?.keepInProgress;
  return runImportSpotWithMedia(services, target, typeof keepInProgress === 'boolean' ? { keepInProgress } : {});
}

/** The spot's outcome, whatever its status; undefined only when a prompt was dismissed. */
export async function runImportSpotWithMedia(services: ExtensionServices, target: unknown, options: ImportWithMediaOptions): Promise<Core.SpotOutcome | undefined> {
  const core = await services.core();
  const { document, name } = await spotTargetSpotDocument(core, target);
  if (document.uri.scheme !== 'file') {
    throw new ActionableError(`${name} is not saved yet: its media folder sits beside the file, so save it first.`, [
      { title: 'Save As…', command: BUILT_IN_COMMAND.saveAs },
    ]);
  }

  // Everything that can be known before a byte is sent, shown on the document at once.
  const check = await checkSpotMediaNow(core, document);
  if (!check.ok) {
    const first = check.problems.find((problem) => problem.severity === 'error') ?? check.problems[0];
    services.log.info('media', `${name} not sent: ${check.problems.length} problem(s)`, check.problems.map((problem) => `${problem.file ?? problem.pointer ?? '/'}: ${problem.message}`));
    if (first) await openAtProblem(document.uri, documentOffset(document, first.offset), first.length);
    throw new ActionableError(`Not imported, nothing was sent: ${name}: ${describeProblems(check.problems.filter((problem) => problem.severity === 'error'))}`, [
      { title: 'Show Problems', command: BUILT_IN_COMMAND.showProblems },
    ]);
  }

  const profile = await activeProfile(services);
  const label = profileLabel(profile);
  const topicId = (check.parsed.value as { data?: { attributes?: { topic_id?: unknown } } }).data?.attributes?.topic_id;
  if (profile.topicId !== undefined && topicId !== profile.topicId) {
    const answer = await services.ui.showWarningMessage(
      `${name} has topic_id ${String(topicId)}, but profile "${label}" serves topic ${profile.topicId}. Import anyway?`,
      { modal: true },
      'Import',
    );
    required(answer === 'Import' ? answer : undefined);
  }

  const media = check.galleries.reduce((sum, gallery) => sum + gallery.files.length, 0);
  const sourceId = check.sourceId ?? name;
  const outcome = await withCancellableProgress({ title: `Importing "${sourceId}" with ${media} media to ${label}`, signal: options.signal }, async (progress, signal) => {
    const starting = startingMessage(profile);
    if (starting) progress.report({ message: starting });
    const { client } = await services.clients.clientFor(profile.id);
    const runOptions = workflowOptions(services, core, {
      client,
      clientId: await clientIdOf(services, profile),
      journalDir: journalDirFor(core, document.uri),
      topics: await topicCatalogFor(document.uri),
      settingsFor: document.uri,
      signal,
      keepInProgress: options.keepInProgress,
      onProgress: (event) => {
        if (event.kind === 'bytes') progress.report({ message: `${event.file}: ${kib(event.sentBytes)} of ${kib(event.totalBytes)}` });
        options.onProgress?.(event);
      },
    });
    services.log.info('media', `${name}: "${sourceId}" with ${media} media to ${label} (journal ${runOptions.journalDir})`);
    // The text as checked (unsaved edits included).
    return core.importSpotWithMedia({ path: document.uri.fsPath, text: document.getText(), label: name }, runOptions);
  }).then(undefined, (error: unknown) => {
    // Cancelled while the client started (the sandbox's first start): the workflow never ran.
    if (!isCancellation(error)) throw error;
    services.log.info('media', `${name}: cancelled before anything was sent`);
    void services.ui.showWarningMessage(`Import of "${sourceId}" cancelled before anything was sent.`, {});
    return undefined;
  });
  if (!outcome) return undefined;

  const kind = kindsOf(services, profile, [outcome]).get(outcome);
  await recordRun(services, profile, [outcome], () => document.uri.toString());
  services.log.info('media', `${name}: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`, { spotId: outcome.spotId, remaining: outcome.remaining });
  report(services, outcome, kind, label, document.uri, profile.id);
  return outcome;
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`;
}

/** The one message of a run; does not wait for the click. */
function report(services: ExtensionServices, outcome: Core.SpotOutcome, kind: 'new' | 'updated' | undefined, label: string, uri: vscode.Uri, profileId: string): void {
  const sourceId = outcome.sourceId ?? outcome.label;
  const galleries = outcome.galleries.map(describeGallery).join(', ');
  const firstGallery = outcome.galleries.find((gallery) => gallery.galleryId !== undefined)?.galleryId;
  const reveal = firstGallery !== undefined ? [SHOW_IN_GALLERIES] : [];
  const onChoice = (choice: string | undefined) => {
    if (choice === SHOW_IN_GALLERIES) return vscode.commands.executeCommand(COMMAND.revealGallery, { galleryId: firstGallery, profileId });
    if (choice === SHOW_LOG) services.log.show();
    if (choice === UPDATE_CREDENTIALS) return vscode.commands.executeCommand(COMMAND.setCredentials, profileId);
    if (choice === OPEN_DOCUMENT) return openAtProblem(uri, 0, 0);
    return undefined;
  };
  const follow = (shown: Promise<string | undefined>) => void shown.then(onChoice).then(undefined, (error: unknown) => services.log.warn('media', 'follow-up after Import Spot with Media failed', error));

  const state = outcome.state === 2 ? ' It stays in progress (state 2).' : '';
  const writeBack = outcome.writeBack.status === 'disabled' ? ' The document was left as it was (write-back is off); the journal remembers its gallery ids.'
    : outcome.writeBack.status === 'conflict' ? ' The document changed meanwhile, so its gallery ids were not written; import again to write them.'
      : '';
  if (outcome.status === 'done') {
    const head = outcome.spotId !== undefined ? describeImported(kind, sourceId, outcome.spotId) : `Imported "${sourceId}"`;
    const where = kind === 'updated' ? 'on' : 'to';
    const text = `${head} ${where} ${label}${galleries ? ` with ${galleries}` : ''}.${state}${writeBack}`;
    follow(services.ui.showInformationMessage(text, ...reveal));
    return;
  }
  const done = outcome.spotId !== undefined ? `Spot ${outcome.spotId} is on ${label}${galleries ? `: ${galleries}` : ''}. ` : 'Nothing was imported. ';
  const remaining = describeRemaining(outcome);
  if (outcome.status === 'cancelled' || outcome.status === 'not-started') {
    follow(services.ui.showWarningMessage(`Import of "${sourceId}" cancelled. ${done}${remaining}`, {}, ...reveal));
    return;
  }
  if (outcome.error && isRefusal(outcome.error)) {
    follow(services.ui.showErrorMessage(`Import of "${sourceId}" stopped: ${outcome.reason ?? 'the credentials were refused'}. ${done}${remaining}`, UPDATE_CREDENTIALS, SHOW_LOG));
    return;
  }
  follow(services.ui.showErrorMessage(`Import of "${sourceId}" failed: ${outcome.reason ?? 'unknown reason'}. ${done}${remaining}`, ...reveal, OPEN_DOCUMENT, SHOW_LOG));
}

const OPEN_DOCUMENT = 'Open Document';
