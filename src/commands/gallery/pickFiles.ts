// The open-file dialog of every upload that was not handed its files (palette, gallery node).
import type * as vscode from 'vscode';
import { required } from '../../platform/cancellation';
import type { ExtensionServices } from '../../platform/services';

export const MEDIA_FILTERS: Record<string, string[]> = {
  Media: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'heic', 'tif', 'tiff', 'mp4', 'mov', 'webm', 'mp3', 'm4a', 'wav', 'ogg'],
  'All files': ['*'],
};

/** The files picked; ends the command quietly when the dialog is dismissed or nothing is picked. */
export async function pickMediaFiles(services: ExtensionServices, title: string): Promise<vscode.Uri[]> {
  const picked = required(
    await services.ui.showOpenDialog({ canSelectMany: true, canSelectFiles: true, canSelectFolders: false, openLabel: 'Upload', title, filters: MEDIA_FILTERS }),
  );
  return required(picked.length > 0 ? picked : undefined);
}
