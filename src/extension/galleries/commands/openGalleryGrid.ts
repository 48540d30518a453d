// Open Gallery (gallery row, or the palette with a gallery picked): the gallery's media as a grid
// of thumbnails in an editor tab.
import * as vscode from 'vscode';
import type { CommandServices } from '../../commands/commandTable';
import { galleryIdOf, profileIdOf, requireActiveProfile } from './galleryArgs';
import { pickGallery } from './pickGallery';

export async function openGalleryGrid(services: CommandServices, node?: unknown): Promise<void> {
  const galleryId = galleryIdOf(node) ?? (await pickGallery(services, vscode.l10n.t('Open the gallery…')));
  const profileId = profileIdOf(node) ?? requireActiveProfile(services).id;
  await services.galleriesView.grids.open(profileId, galleryId);
}
