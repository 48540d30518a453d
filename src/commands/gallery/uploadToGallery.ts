// "Upload to Spot Gallery" from the Explorer: VS Code passes the clicked file and every selected
// one (uri, uris[]). From the palette there are no arguments: ask for the files first.
import * as vscode from 'vscode';
import { required } from '../../platform/cancellation';
import type { ExtensionServices } from '../../platform/services';
import { fileUris } from './galleryArgs';
import { pickGallery } from './pickGallery';
import { uploadWithProgress } from './uploadMedia';

export const MEDIA_FILTERS: Record<string, string[]> = {
  Media: ['jpg', 'jpeg', 'png', 'gif', 'webp', 'heic', 'tif', 'tiff', 'mp4', 'mov', 'webm', 'mp3', 'm4a', 'wav', 'ogg'],
  'All files': ['*'],
};

export async function uploadToGallery(services: ExtensionServices, uri?: unknown, uris?: unknown): Promise<void> {
  // With a multi-selection VS Code passes every selected file in `uris`, the clicked one included.
  let files = fileUris(Array.isArray(uris) && uris.length > 0 ? uris : [uri]);
  if (files.length === 0) {
    files = required(
      await services.ui.showOpenDialog({ canSelectMany: true, canSelectFiles: true, canSelectFolders: false, openLabel: 'Upload', title: 'Files to upload to a spot gallery', filters: MEDIA_FILTERS }),
    );
    if (files.length === 0) return;
  }
  const title = files.length === 1 ? `Upload ${vscode.workspace.asRelativePath(files[0])} to…` : `Upload ${files.length} files to…`;
  const galleryId = await pickGallery(services, title);
  await uploadWithProgress(services, galleryId, files);
}
