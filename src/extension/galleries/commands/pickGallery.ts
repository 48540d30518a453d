// Which gallery to upload into, when the caller did not say: the galleries the user knows,
// pending ones first (they are the ones waiting for media), or any id typed in.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import type { KnownGallery } from '../../platform/domain';
import { required } from '../../platform/cancellation';
import { requireActiveProfile, validateGalleryId } from './galleryArgs';

const ENTER_GALLERY_ID = vscode.l10n.t('Enter Gallery Id…');

interface GalleryItem extends vscode.QuickPickItem {
  galleryId?: number;
}

function toItem(known: KnownGallery): GalleryItem {
  return {
    label: known.field ?? vscode.l10n.t('Gallery {0}', known.galleryId),
    description: [vscode.l10n.t('gallery {0}', known.galleryId), known.pending ? vscode.l10n.t('pending') : undefined].filter(Boolean).join(' · '),
    detail: known.spot ? vscode.l10n.t('spot {0} (id {1})', known.spot.sourceId, known.spot.spotId) : vscode.l10n.t('added by id'),
    galleryId: known.galleryId,
  };
}

export async function askGalleryId(services: ExtensionServices, title: string): Promise<number> {
  const text = required(
    await services.ui.showInputBox({
      title,
      prompt: vscode.l10n.t('Gallery id (a positive whole number)'),
      placeHolder: vscode.l10n.t('e.g. 12'),
      validateInput: validateGalleryId,
    }),
  );
  return Number(text.trim());
}

/** Resolves to a gallery id, or ends the command quietly when the user backs out. */
export async function pickGallery(services: ExtensionServices, title: string): Promise<number> {
  const profile = requireActiveProfile(services);
  const known = services.galleries.list(profile.id);
  if (known.length === 0) return askGalleryId(services, title);
  const ordered = [...known.filter((g) => g.pending), ...known.filter((g) => !g.pending)];
  const items: GalleryItem[] = [...ordered.map(toItem), { label: ENTER_GALLERY_ID, alwaysShow: true }];
  // ignoreFocusOut: a walkthrough button that runs Upload a Photo or Open the Gallery marks its
  // step done, and the walkthrough page then moves on and takes the focus: the pick must stay open.
  const picked = required(
    await services.ui.showQuickPick(items, {
      title,
      placeHolder: vscode.l10n.t('Pick a gallery (pending galleries first)'),
      matchOnDescription: true,
      matchOnDetail: true,
      ignoreFocusOut: true,
    }),
  );
  return picked.galleryId ?? askGalleryId(services, title);
}
