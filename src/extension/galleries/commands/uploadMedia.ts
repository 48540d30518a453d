// Every way into an upload (Explorer, gallery node, drop, import result) ends here: a cancellable
// progress notification in bytes per file, then one message that says what arrived and what not.
import * as vscode from 'vscode';
import { formatDecimal } from '../../../core/text/l10n';
import { withCancellableProgress } from '../../platform/cancellation';
import { ActionableError, describeError, type ErrorAction } from '../../platform/errors';
import { actionsFor, showMessage } from '../../platform/errorActions';
import type { CommandServices } from '../../commands/commandTable';
import { SHOW_IN_GALLERIES } from '../../import/importResultActions';
import { MARK_SPOT_ACTIVE, spotReadyToActivate } from './markSpotActive';
import { uploadFiles, type FileOutcome, type FileStatus, type UploadHooks, type UploadOutcome } from './uploadRun';
import { COMMAND } from '../../platform/commandIds';

export interface UploadOptions extends UploadHooks {
  /** Cancels as the notification's Cancel button does (a caller with its own cancellation). */
  signal?: AbortSignal;
  /**
   * The profile whose gallery this is (a gallery node's, or the one active when the command
   * started). Default: the profile active now. The whole run stays with it.
   */
  profileId?: string;
}

// Buttons' titles, compared with the button the user clicked (and by tests). Read when
// dist/features.js loads, on the first command: VS Code has the extension's bundle by then.
export const UPLOAD_THE_REST = vscode.l10n.t('Upload the Rest');
/** For interrupted files: reload the gallery and show it, so the user sees whether they arrived. */
export const CHECK_GALLERY = vscode.l10n.t('Check Gallery');
export const INTERRUPTED_TITLE = vscode.l10n.t('Interrupted, may have arrived (refresh the gallery to check before sending again)');

function names(files: FileOutcome[], max = 5): string {
  const shown = files.slice(0, max).map((file) => file.name);
  return files.length > max ? vscode.l10n.t('{0} and {1} more', shown.join(', '), files.length - max) : shown.join(', ');
}

/** "empty.jpg: the file is empty; photos: is not a file": each with why it cannot go into a gallery. */
function skippedNames(files: FileOutcome[], max = 5): string {
  const shown = files
    .slice(0, max)
    .map(
      (file) =>
        `${file.name}: ${file.reason ?? vscode.l10n.t({ message: 'skipped', args: [], comment: ['why a file was not uploaded, when no reason is known'] })}`,
    );
  return files.length > max ? vscode.l10n.t('{0}; and {1} more', shown.join('; '), files.length - max) : shown.join('; ');
}

/** "Arrived (1): a.png. Not sent (2): b.png, c.png." — only the groups that have files. */
function describeOutcome(outcome: UploadOutcome): string {
  const groups: Array<[FileStatus, string]> = [
    ['arrived', vscode.l10n.t('Arrived')],
    ['failed', vscode.l10n.t('Failed')],
    ['interrupted', INTERRUPTED_TITLE],
    ['notSent', vscode.l10n.t('Not sent')],
    ['skipped', vscode.l10n.t('Skipped')],
  ];
  return groups
    .map(([status, title]) => {
      const files = outcome.files.filter((file) => file.status === status);
      return files.length ? `${title} (${files.length}): ${status === 'skipped' ? skippedNames(files) : names(files)}.` : '';
    })
    .filter(Boolean)
    .join(' ');
}

/** Records the upload in the store and the tree, then tells the user how it went. */
export async function finishUpload(services: CommandServices, outcome: UploadOutcome): Promise<void> {
  const { galleryId, profileId, files } = outcome;
  const arrived = files.filter((file) => file.status === 'arrived');
  if (arrived.length > 0) {
    const known = services.galleries.list(profileId).some((gallery) => gallery.galleryId === galleryId);
    if (known) await services.galleries.markUploaded(profileId, galleryId);
    else await services.galleries.add(profileId, [{ galleryId, pending: false }]);
  }
  services.galleriesView.refreshGallery(galleryId, profileId);

  // Interrupted files may have arrived: sending them again could store them twice, so they are
  // not part of "Upload the Rest"; "Check Gallery" shows what the service has.
  const rest = files.filter((file) => file.status === 'failed' || file.status === 'notSent');
  const interrupted = files.filter((file) => file.status === 'interrupted');
  const restAction: ErrorAction = {
    title: UPLOAD_THE_REST,
    command: COMMAND.uploadToGalleryNode,
    args: [{ galleryId, profileId }, rest.map((file) => file.uri)],
  };
  const checkAction: ErrorAction = { title: CHECK_GALLERY, command: COMMAND.revealGallery, args: [{ galleryId, profileId, refresh: true }] };
  const actions: ErrorAction[] = [...(rest.length ? [restAction] : []), ...(interrupted.length ? [checkAction] : [])];
  const failed = files.some((file) => file.status === 'failed');

  if (outcome.stoppedBy !== undefined || failed) {
    const failure =
      outcome.stoppedBy !== undefined
        ? vscode.l10n.t('Upload to gallery {0} failed: {1}.', galleryId, describeError(outcome.stoppedBy).replace(/\.$/, ''))
        : vscode.l10n.t('Upload to gallery {0} failed.', galleryId);
    // The one policy's buttons for what stopped it (Update Credentials for a refusal, Open Settings for a certificate).
    if (outcome.stoppedBy !== undefined) actions.push(...actionsFor(outcome.stoppedBy, { profileId }));
    throw new ActionableError(`${failure} ${describeOutcome(outcome)}`, actions);
  }

  if (outcome.cancelled) {
    showMessage(services, 'warning', `${vscode.l10n.t('Upload to gallery {0} cancelled.', galleryId)} ${describeOutcome(outcome)}`, actions);
    return;
  }

  const bytes = arrived.reduce((sum, file) => sum + file.bytes, 0);
  const skipped = files.filter((file) => file.status === 'skipped');
  const note =
    skipped.length === 0
      ? ''
      : ` ${
          skipped.length === 1
            ? vscode.l10n.t('Skipped 1 item that cannot go into a gallery: {0}.', skippedNames(skipped))
            : vscode.l10n.t('Skipped {0} items that cannot go into a gallery: {1}.', skipped.length, skippedNames(skipped))
        }`;
  if (arrived.length === 0) {
    // Nothing was fit to send: nothing to show in the gallery either.
    showMessage(services, 'warning', `${vscode.l10n.t('Nothing was uploaded to gallery {0}.', galleryId)}${note}`);
    return;
  }
  const size = bytes >= 1024 * 1024 ? `${formatDecimal(bytes / 1024 / 1024, 1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
  // Opt-in only: the last pending gallery of a spot whose document is known offers the next step.
  const ready = spotReadyToActivate(services, profileId, galleryId);
  const next = ready ? ` ${vscode.l10n.t('All galleries of "{0}" have media now.', ready.spot.sourceId)}` : '';
  const uploaded =
    arrived.length === 1
      ? vscode.l10n.t('Uploaded 1 file ({0}) to gallery {1}.', size, galleryId)
      : vscode.l10n.t('Uploaded {0} files ({1}) to gallery {2}.', arrived.length, size, galleryId);
  showMessage(services, 'info', `${uploaded}${note}${next}`, [
    { title: SHOW_IN_GALLERIES, run: () => services.galleriesView.reveal(galleryId, profileId) },
    ...(ready ? [{ title: MARK_SPOT_ACTIVE, command: COMMAND.markSpotActive, args: [ready] }] : []),
  ]);
}

/** Uploads with a cancellable notification and reports the outcome (throws when files failed). */
export async function uploadWithProgress(
  services: CommandServices,
  galleryId: number,
  uris: vscode.Uri[],
  options: UploadOptions = {},
): Promise<UploadOutcome> {
  const title =
    uris.length === 1
      ? vscode.l10n.t('Uploading 1 file to gallery {0}', galleryId)
      : vscode.l10n.t('Uploading {0} files to gallery {1}', uris.length, galleryId);
  const outcome = await withCancellableProgress({ title }, async (progress, progressSignal) => {
    const signal = options.signal ? AbortSignal.any([progressSignal, options.signal]) : progressSignal;
    let shownPercent = 0;
    const hooks: UploadHooks = {
      onProgress(message, done) {
        // Progress takes increments; convert the share done into one and never go backwards.
        const percent = Math.min(100, done * 100);
        progress.report({ message, increment: Math.max(0, percent - shownPercent) });
        shownPercent = Math.max(shownPercent, percent);
        options.onProgress?.(message, done);
      },
      onFileDone: options.onFileDone,
    };
    return uploadFiles(services, galleryId, uris, signal, hooks, options.profileId);
  });
  await finishUpload(services, outcome);
  return outcome;
}
