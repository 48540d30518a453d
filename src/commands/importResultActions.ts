// What follows a successful import: record the pending galleries for the Galleries view, and
// offer the next step (upload their media, or show them). The buttons run the galleries
// feature's commands with { galleryId, profileId }: the message may be clicked after a switch to
// another profile, and the same gallery id on another service is another gallery.
import * as vscode from 'vscode';
import type * as Core from '../core';
import type { ExtensionServices } from '../platform/services';
import { profileLabel, type KnownGallery, type Profile } from '../platform/domain';
import { describeImported, type ImportKind } from './importedSources';
import { COMMAND } from '../platform/commandIds';

export const UPLOAD_MEDIA = 'Upload Media';
export const SHOW_IN_GALLERIES = 'Show in Galleries';

/** `documentUri`: the document the spot was imported from (Uri.toString()), when known. */
export function pendingAsKnown(result: Core.ImportResult, sourceId: string, documentUri?: string): KnownGallery[] {
  return result.pendingGalleries.map((gallery) => ({
    galleryId: gallery.galleryId,
    field: gallery.field,
    spot: { spotId: result.spotId, sourceId, ...(documentUri !== undefined ? { documentUri } : {}) },
    pending: true,
  }));
}

export function describePending(result: Core.ImportResult): string {
  return result.pendingGalleries.map((gallery) => `${gallery.field} → gallery ${gallery.galleryId}`).join(', ');
}

/** Lets the user choose which pending gallery to upload to when there are several. */
async function choosePending(services: ExtensionServices, result: Core.ImportResult): Promise<number | undefined> {
  if (result.pendingGalleries.length === 1) return result.pendingGalleries[0].galleryId;
  const picked = await services.ui.showQuickPick(
    result.pendingGalleries.map((gallery) => ({ label: gallery.field, description: `gallery ${gallery.galleryId}`, galleryId: gallery.galleryId })),
    { title: 'Upload media to which gallery?', placeHolder: 'Pending gallery fields of the imported spot' },
  );
  return picked?.galleryId;
}

/**
 * Tells the user what happened; does not wait for the click, so the command ends at once. `kind`:
 * whether this profile had imported the source id before (see importedSources).
 */
export function announceImport(services: ExtensionServices, profile: Profile, sourceId: string, result: Core.ImportResult, kind?: ImportKind): void {
  const where = profileLabel(profile);
  const head = `${describeImported(kind, sourceId, result.spotId)} ${kind === 'updated' ? 'on' : 'to'} ${where}.`;
  if (result.pendingGalleries.length === 0) {
    void services.ui.showInformationMessage(head);
    return;
  }
  const message = `${head} Pending galleries: ${describePending(result)}. Upload their media next.`;
  void services.ui.showInformationMessage(message, UPLOAD_MEDIA, SHOW_IN_GALLERIES).then(async (choice) => {
    if (choice === UPLOAD_MEDIA) {
      const galleryId = await choosePending(services, result);
      if (galleryId !== undefined) await vscode.commands.executeCommand(COMMAND.uploadToGalleryNode, { galleryId, profileId: profile.id });
    } else if (choice === SHOW_IN_GALLERIES) {
      await vscode.commands.executeCommand(COMMAND.revealGallery, { galleryId: result.pendingGalleries[0].galleryId, profileId: profile.id });
    }
  }).then(undefined, (error: unknown) => services.log.warn('import', 'follow-up after import failed', error));
}
