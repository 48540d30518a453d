// "Show in Galleries" (after an import or an upload): open the view at the gallery's node, or
// just open the view when no gallery is named.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import { GALLERIES_VIEW_ID } from '../../views/registerGalleriesView';
import { galleriesView, galleryIdOf } from './galleryArgs';

export async function revealGallery(services: ExtensionServices, target?: unknown): Promise<boolean> {
  const galleryId = galleryIdOf(target);
  if (galleryId === undefined) {
    await vscode.commands.executeCommand(`${GALLERIES_VIEW_ID}.focus`);
    return false;
  }
  return galleriesView(services).reveal(galleryId);
}
