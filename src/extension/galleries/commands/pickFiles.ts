// The open-file dialog of every upload that was not handed its files (palette, gallery node).
import * as vscode from 'vscode';
import { required } from '../../platform/cancellation';
import type { ExtensionServices } from '../../platform/services';

// The filters' names are shown in the dialog. Like the buttons' titles of the commands, they are
// read when dist/features.js loads, on the first command: VS Code has the extension's bundle then.
const MEDIA_FILTERS: Record<string, string[]> = {
  [vscode.l10n.t('Media')]: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'heic', 'tif', 'tiff', 'mp4', 'mov', 'webm', 'mp3', 'm4a', 'wav', 'ogg'],
  [vscode.l10n.t('All files')]: ['*'],
};

/** The files picked; ends the command quietly when the dialog is dismissed or nothing is picked. */
export async function pickMediaFiles(services: ExtensionServices, title: string): Promise<vscode.Uri[]> {
  const picked = required(
    await services.ui.showOpenDialog({
      canSelectMany: true,
      canSelectFiles: true,
      canSelectFolders: false,
      openLabel: vscode.l10n.t('Upload'),
      title,
      filters: MEDIA_FILTERS,
    }),
  );
  return required(picked.length > 0 ? picked : undefined);
}
