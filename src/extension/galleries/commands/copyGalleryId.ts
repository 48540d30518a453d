// Copies a gallery id, e.g. to paste into a spot document or a support request.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';
import { galleryIdOf } from './galleryArgs';
import { pickGallery } from './pickGallery';

export async function copyGalleryId(services: ExtensionServices, node?: unknown): Promise<void> {
  const galleryId = galleryIdOf(node) ?? (await pickGallery(services, vscode.l10n.t('Copy the id of…')));
  await vscode.env.clipboard.writeText(String(galleryId));
  // A status bar line, not a notification: the copy is expected to work and needs no answer.
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied gallery id {0}', galleryId), 3000);
}
