// What follows a successful import of one spot: offer the next step (upload the media of its
// pending galleries, or show them). The buttons run the galleries feature's commands with
// { galleryId, profileId }: the message may be clicked after a switch to another profile, and the
// same gallery id on another service is another gallery.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import type { ExtensionServices } from '../platform/services';
import { profileLabel, type Profile } from '../platform/domain';
import { showMessage } from '../platform/errorActions';
import { describeImported } from './importRun';
import { COMMAND } from '../platform/commandIds';

// Buttons' titles, compared with the button the user clicked. Read when dist/features.js loads,
// on the first command: VS Code has the extension's bundle by then.
const UPLOAD_MEDIA = vscode.l10n.t('Upload Media');
export const SHOW_IN_GALLERIES = vscode.l10n.t('Show in Galleries');

/** The galleries the spot got that wait for media (no file beside the document went into them). */
export function pendingGalleriesOf(spot: Core.SpotOutcome): Core.PendingGallery[] {
  return spot.galleries.flatMap((gallery) =>
    gallery.galleryId !== undefined && gallery.files === 0 ? [{ field: gallery.field, galleryId: gallery.galleryId }] : [],
  );
}

function describePending(pending: readonly Core.PendingGallery[]): string {
  return pending.map((gallery) => vscode.l10n.t('{0} → gallery {1}', gallery.field, gallery.galleryId)).join(', ');
}

/** Lets the user choose which pending gallery to upload to when there are several. */
async function choosePending(services: ExtensionServices, pending: readonly Core.PendingGallery[]): Promise<number | undefined> {
  if (pending.length === 1) return pending[0].galleryId;
  const picked = await services.ui.showQuickPick(
    pending.map((gallery) => ({ label: gallery.field, description: vscode.l10n.t('gallery {0}', gallery.galleryId), galleryId: gallery.galleryId })),
    { title: vscode.l10n.t('Upload media to which gallery?'), placeHolder: vscode.l10n.t('Pending gallery fields of the imported spot') },
  );
  return picked?.galleryId;
}

/** Tells the user what happened to a spot that is done; does not wait for the click, so the command ends at once. */
export function announceImport(services: ExtensionServices, profile: Profile, spot: Core.SpotOutcome): void {
  const sourceId = spot.sourceId ?? spot.label;
  const head = `${describeImported(spot, sourceId, spot.spotId!, profileLabel(profile))}.`;
  const pending = pendingGalleriesOf(spot);
  if (pending.length === 0) return showMessage(services, 'info', head);
  showMessage(services, 'info', `${head} ${vscode.l10n.t('Pending galleries: {0}. Upload their media next.', describePending(pending))}`, [
    {
      title: UPLOAD_MEDIA,
      run: async () => {
        const galleryId = await choosePending(services, pending);
        if (galleryId !== undefined) await vscode.commands.executeCommand(COMMAND.uploadToGalleryNode, { galleryId, profileId: profile.id });
      },
    },
    { title: SHOW_IN_GALLERIES, command: COMMAND.revealGallery, args: [{ galleryId: pending[0].galleryId, profileId: profile.id }] },
  ]);
}
