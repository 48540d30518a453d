// "Show in Galleries" (after an import or an upload): open the view at the gallery's node, or
// just open the view when no gallery is named. `{ galleryId, refresh: true }` ("Check Gallery"
// after an interrupted upload) reloads the gallery first, so the view shows what really arrived.
import * as vscode from 'vscode';
import type { CommandServices } from '../../commands/commandTable';
import { BUILT_IN_COMMAND } from '../../platform/commandIds';
import { galleryIdOf, profileIdOf } from './galleryArgs';

export async function revealGallery(services: CommandServices, target?: unknown): Promise<boolean> {
  const galleryId = galleryIdOf(target);
  if (galleryId === undefined) {
    await vscode.commands.executeCommand(BUILT_IN_COMMAND.focusGalleriesView);
    return false;
  }
  const profileId = profileIdOf(target);
  const view = services.galleriesView;
  if (target && typeof target === 'object' && (target as { refresh?: unknown }).refresh === true) view.refreshGallery(galleryId, profileId);
  return view.reveal(galleryId, profileId);
}
