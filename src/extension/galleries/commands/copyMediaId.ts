// Copies the id of a media item (media nodes only).
import * as vscode from 'vscode';
import type { ExtensionServices } from '../../platform/services';

export async function copyMediaId(_services: ExtensionServices, node?: unknown): Promise<void> {
  const mediaId = node && typeof node === 'object' ? (node as { mediaId?: unknown }).mediaId : undefined;
  if (typeof mediaId !== 'number') return;
  await vscode.env.clipboard.writeText(String(mediaId));
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied media id {0}', mediaId), 3000);
}
