// Every way into an upload (Explorer, gallery node, drop, import result) ends here: a cancellable
// progress notification in bytes per file, then one message that says what arrived and what not.
import * as vscode from 'vscode';
import { withCancellableProgress } from '../../platform/cancellation';
import { ActionableError, describeError, isAuthenticationError, type ErrorAction } from '../../platform/errors';
import type { ExtensionServices } from '../../platform/services';
import { uploadFiles, type FileOutcome, type FileStatus, type UploadHooks, type UploadOutcome } from './uploadRun';

export interface UploadOptions extends UploadHooks {
  /** Cancels as the notification's Cancel button does (a caller with its own cancellation). */
  signal?: AbortSignal;
}

export const SHOW_IN_GALLERIES = 'Show in Galleries';
export const UPLOAD_THE_REST = 'Upload the Rest';

function names(files: FileOutcome[], max = 5): string {
  const shown = files.slice(0, max).map((file) => file.name);
  return files.length > max ? `${shown.join(', ')} and ${files.length - max} more` : shown.join(', ');
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** "Arrived (1): a.png. Not sent (2): b.png, c.png." — only the groups that have files. */
export function describeOutcome(outcome: UploadOutcome): string {
  const groups: Array<[FileStatus, string]> = [
    ['arrived', 'Arrived'],
    ['failed', 'Failed'],
    ['interrupted', 'Interrupted (refresh the gallery to check)'],
    ['notSent', 'Not sent'],
    ['skipped', 'Skipped (not a file)'],
  ];
  return groups
    .map(([status, title]) => {
      const files = outcome.files.filter((file) => file.status === status);
      return files.length ? `${title} (${files.length}): ${names(files)}.` : '';
    })
    .filter(Boolean)
    .join(' ');
}

/** Records the upload in the store and the tree, then tells the user how it went. */
export async function finishUpload(services: ExtensionServices, outcome: UploadOutcome): Promise<void> {
  const { galleryId, profileId, files } = outcome;
  const arrived = files.filter((file) => file.status === 'arrived');
  if (arrived.length > 0) {
    const known = services.galleries.list(profileId).some((gallery) => gallery.galleryId === galleryId);
    if (known) await services.galleries.markUploaded(profileId, galleryId);
    else await services.galleries.add(profileId, [{ galleryId, pending: false }]);
  }
  services.galleriesView?.refreshGallery(galleryId);

  const rest = files.filter((file) => file.status === 'failed' || file.status === 'interrupted' || file.status === 'notSent');
  const restAction: ErrorAction = { title: UPLOAD_THE_REST, command: 'spotImport.gallery.upload', args: [{ galleryId }, rest.map((file) => file.uri)] };
  const failed = files.some((file) => file.status === 'failed');

  if (outcome.stoppedBy !== undefined || failed) {
    const why = outcome.stoppedBy !== undefined ? `: ${describeError(outcome.stoppedBy)}` : '';
    const actions = rest.length ? [restAction] : [];
    if (isAuthenticationError(outcome.stoppedBy)) {
      const profile = services.profiles.active();
      if (profile) services.clients.reportRejected(profile);
      actions.push({ title: 'Update Credentials', command: 'spotImport.setCredentials' });
    }
    throw new ActionableError(`Upload to gallery ${galleryId} failed${why}. ${describeOutcome(outcome)}`, actions);
  }

  if (outcome.cancelled) {
    const buttons = rest.length ? [UPLOAD_THE_REST] : [];
    void services.ui.showWarningMessage(`Upload to gallery ${galleryId} cancelled. ${describeOutcome(outcome)}`, {}, ...buttons).then((choice) => {
      if (choice === UPLOAD_THE_REST) void vscode.commands.executeCommand(restAction.command, ...(restAction.args ?? []));
    });
    return;
  }

  const bytes = arrived.reduce((sum, file) => sum + file.bytes, 0);
  const skipped = files.filter((file) => file.status === 'skipped');
  const note = skipped.length ? ` Skipped ${plural(skipped.length, 'item')} that ${skipped.length === 1 ? 'is' : 'are'} not a file: ${names(skipped)}.` : '';
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
  void services.ui
    .showInformationMessage(`Uploaded ${plural(arrived.length, 'file')} (${size}) to gallery ${galleryId}.${note}`, SHOW_IN_GALLERIES)
    .then((choice) => {
      if (choice === SHOW_IN_GALLERIES) void services.galleriesView?.reveal(galleryId);
    });
}

/** Uploads with a cancellable notification and reports the outcome (throws when files failed). */
export async function uploadWithProgress(
  services: ExtensionServices,
  galleryId: number,
  uris: vscode.Uri[],
  options: UploadOptions = {},
): Promise<UploadOutcome> {
  const title = `Uploading ${plural(uris.length, 'file')} to gallery ${galleryId}`;
  const outcome = await withCancellableProgress({ title }, async (progress, progressSignal) => {
    const signal = options.signal ? AbortSignal.any([progressSignal, options.signal]) : progressSignal;
    let shownPercent = 0;
    return uploadFiles(services, galleryId, uris, signal, {
      onProgress(message, done) {
        // Progress takes increments; convert the share done into one and never go backwards.
        const percent = Math.min(100, done * 100);
        progress.report({ message, increment: Math.max(0, percent - shownPercent) });
        shownPercent = Math.max(shownPercent, percent);
        options.onProgress?.(message, done);
      },
      onFileDone: options.onFileDone,
    });
  });
  await finishUpload(services, outcome);
  return outcome;
}
