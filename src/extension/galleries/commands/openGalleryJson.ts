// Shows a gallery as the service returns it, in a read-only JSON document.
import * as vscode from 'vscode';
import type { CommandServices } from '../../commands/commandTable';
import { galleryIdOf, profileIdOf, signalOf } from './galleryArgs';
import { pickGallery } from './pickGallery';

export async function openGalleryJson(services: CommandServices, node?: unknown): Promise<void> {
  const galleryId = galleryIdOf(node) ?? (await pickGallery(services, vscode.l10n.t('Open the JSON of…')));
  await services.galleriesView.openJson(galleryId, profileIdOf(node), signalOf(node));
}
