// Removes a gallery from the view only: nothing is deleted on the service, so no confirmation.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import { requireActiveProfile, galleryIdOf } from './galleryArgs';
import { pickGallery } from './pickGallery';

export async function removeGallery(services: ExtensionServices, node?: unknown): Promise<void> {
  const profile = requireActiveProfile(services);
  const galleryId = galleryIdOf(node) ?? (await pickGallery(services, vscode.l10n.t('Remove from the Galleries view…')));
  await services.galleries.remove(profile.id, galleryId);
}
