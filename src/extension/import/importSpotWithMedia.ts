// Import Spot with Media: the open document and the media folder beside it (walk.spot.json +
// walk.media/) in one resumable step, through the core's import engine. Before anything is sent
// the document and every media file are checked and the problems shown on the document (that
// check is handed to the engine: each file is hashed once); then a cancellable notification says
// which file is on its way and how many bytes of it have gone. Whatever ends the run, the user is
// told what is done and what a second run will finish; the journal (.spot-import/) is what makes
// that second run pick up where this one stopped.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { openAtProblem, spotTargetSpotDocument } from '../documents/spotTarget';
import { actionsFor, showMessage, type MessageButton } from '../platform/errorActions';
import { ActionableError } from '../platform/errors';
import { profileLabel, type Profile } from '../platform/domain';
import { BUILT_IN_COMMAND, COMMAND } from '../platform/commandIds';
import { activeProfile } from '../profiles/activeProfile';
import type { CommandServices } from '../commands/commandTable';
import { describeGallery, describeImported, describeRemaining, GalleryRecorder, refusal } from './importRun';
import { cancelledBeforeSending, importWithProgress } from './importWithProgress';
import { SHOW_IN_GALLERIES } from './importResultActions';

export interface ImportWithMediaOptions {
  /** Cancels as the notification's Cancel button does (tests; callers with their own cancel). */
  signal?: AbortSignal;
  /** Keep the spot in progress (state 2) for this run, whatever the setting says. */
  keepInProgress?: boolean;
  /** Told of every progress event (tests cancel part-way with it). */
  onProgress?: (event: Core.ImportProgress) => void;
}

/** The command: `target` is the document's Uri (CodeLens, menus) or absent (active editor). */
export function importSpotWithMedia(services: CommandServices, target?: unknown, options?: unknown): Promise<Core.SpotOutcome | undefined> {
  const keepInProgress = (options as { keepInProgress?: unknown } | undefined)?.keepInProgress;
  return runImportSpotWithMedia(services, target, typeof keepInProgress === 'boolean' ? { keepInProgress } : {});
}

/** The spot's outcome, whatever its status; undefined only when nothing was started. */
export async function runImportSpotWithMedia(
  services: CommandServices,
  target: unknown,
  options: ImportWithMediaOptions,
): Promise<Core.SpotOutcome | undefined> {
  const core = await services.core();
  const { document, name } = await spotTargetSpotDocument(core, target);
  if (document.uri.scheme !== 'file') {
    throw new ActionableError(vscode.l10n.t('{0} is not saved yet: its media folder sits beside the file, so save it first.', name), [
      { title: vscode.l10n.t('Save As…'), command: BUILT_IN_COMMAND.saveAs },
    ]);
  }
  const refuse = (problems: readonly Core.SpotProblem[]) => refusal(services, core, document, name, problems);

  // Everything that can be known before a byte is sent, shown on the document at once.
  const check = await services.checker.checkMediaNow(core, document);
  if (!check.ok) throw await refuse(check.problems);

  const profile = await activeProfile(services);
  const label = profileLabel(profile);
  const media = check.galleries.reduce((sum, gallery) => sum + gallery.files.length, 0);
  const sourceId = check.sourceId ?? name;
  const outcome = await importWithProgress(
    services,
    { title: vscode.l10n.t('Importing "{0}" with {1} media to {2}', sourceId, media, label), subject: `"${sourceId}"`, profile, signal: options.signal },
    async (run) => {
      const engine = await run.engine({ target: document.uri, keepInProgress: options.keepInProgress, lines: 'bytes', onProgress: options.onProgress });
      services.log.info('media', `${name}: "${sourceId}" with ${media} media to ${label} (journal ${engine.journal.dir})`);
      // The text as checked (unsaved edits included), and the check itself.
      return run.core.importOneSpot({ path: document.uri.fsPath, label: name, check }, engine);
    },
  );
  if (!outcome) return undefined;
  if (outcome.status === 'not-started' && !outcome.sent) {
    services.log.info('media', `${name}: cancelled before anything was sent`);
    void services.ui.showWarningMessage(cancelledBeforeSending(`"${sourceId}"`), {});
    return undefined;
  }
  // The topic rules (the profile's topic, the topic definitions) refused it.
  if (outcome.status === 'invalid') throw await refuse(outcome.problems);

  const recorder = new GalleryRecorder(services, profile, () => document.uri.toString());
  recorder.add(outcome);
  await recorder.finish();
  services.log.info('media', `${name}: ${outcome.status}${outcome.reason ? ` (${outcome.reason})` : ''}`, {
    spotId: outcome.spotId,
    remaining: outcome.remaining,
  });
  report(services, outcome, profile, document.uri);
  return outcome;
}

/** The one message of a run; does not wait for the click. */
function report(services: CommandServices, outcome: Core.SpotOutcome, profile: Profile, uri: vscode.Uri): void {
  const label = profileLabel(profile);
  const sourceId = outcome.sourceId ?? outcome.label;
  const galleries = outcome.galleries.map(describeGallery).join(', ');
  const firstGallery = outcome.galleries.find((gallery) => gallery.galleryId !== undefined)?.galleryId;
  const reveal: MessageButton[] =
    firstGallery !== undefined
      ? [{ title: SHOW_IN_GALLERIES, command: COMMAND.revealGallery, args: [{ galleryId: firstGallery, profileId: profile.id }] }]
      : [];

  const state = outcome.state === 2 ? ` ${vscode.l10n.t('It stays in progress (state 2).')}` : '';
  const writeBack =
    outcome.writeBack.status === 'disabled'
      ? ` ${vscode.l10n.t('The document was left as it was (write-back is off); the journal remembers its gallery ids.')}`
      : outcome.writeBack.status === 'conflict'
        ? ` ${vscode.l10n.t('The document changed meanwhile, so its gallery ids were not written; import again to write them.')}`
        : '';
  if (outcome.status === 'done') {
    return showMessage(services, 'info', `${describeImported(outcome, sourceId, outcome.spotId, label, galleries)}.${state}${writeBack}`, reveal);
  }
  const done =
    outcome.spotId === undefined
      ? `${vscode.l10n.t('Nothing was imported.')} `
      : galleries
        ? `${vscode.l10n.t('Spot {0} is on {1}: {2}.', outcome.spotId, label, galleries)} `
        : `${vscode.l10n.t('Spot {0} is on {1}.', outcome.spotId, label)} `;
  const remaining = describeRemaining(outcome);
  if (outcome.status === 'cancelled' || outcome.status === 'not-started') {
    return showMessage(services, 'warning', `${vscode.l10n.t('Import of "{0}" cancelled.', sourceId)} ${done}${remaining}`, reveal);
  }
  // The one policy's buttons for what failed (Update Credentials for a refusal, …), then the spot's own.
  const fixes = actionsFor(outcome.error, { profileId: profile.id });
  if (outcome.failure?.kind === 'credentials') {
    const stopped =
      outcome.reason !== undefined
        ? vscode.l10n.t('Import of "{0}" stopped: {1}.', sourceId, outcome.reason)
        : vscode.l10n.t('Import of "{0}" stopped: the credentials were refused.', sourceId);
    return showMessage(services, 'error', `${stopped} ${done}${remaining}`, fixes);
  }
  const failed =
    outcome.reason !== undefined
      ? vscode.l10n.t('Import of "{0}" failed: {1}.', sourceId, outcome.reason)
      : vscode.l10n.t('Import of "{0}" failed: unknown reason.', sourceId);
  showMessage(services, 'error', `${failed} ${done}${remaining}`, [
    ...fixes,
    ...reveal,
    { title: vscode.l10n.t('Open Document'), run: () => openAtProblem(uri, 0, 0) },
  ]);
}
