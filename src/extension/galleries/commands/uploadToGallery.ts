// "Upload to Spot Gallery" from the Explorer: VS Code passes the clicked file and every selected
// one (uri, uris[]). From the palette there are no arguments: ask for the files first.
import * as vscode from 'vscode';
import type { CommandServices } from '../../commands/commandTable';
import { requireActiveProfile, fileUris } from './galleryArgs';
import { pickGallery } from './pickGallery';
import { pickMediaFiles } from './pickFiles';
import { uploadWithProgress } from './uploadMedia';

export async function uploadToGallery(services: CommandServices, uri?: unknown, uris?: unknown): Promise<void> {
  // The gallery is picked among this profile's: the upload goes to it even if the user switches meanwhile.
  const profile = requireActiveProfile(services);
  // With a multi-selection VS Code passes every selected file in `uris`, the clicked one included.
  let files = fileUris(Array.isArray(uris) && uris.length > 0 ? uris : [uri]);
  if (files.length === 0) files = await pickMediaFiles(services, vscode.l10n.t('Files to upload to a spot gallery'));
  const title =
    files.length === 1 ? vscode.l10n.t('Upload {0} to…', vscode.workspace.asRelativePath(files[0])) : vscode.l10n.t('Upload {0} files to…', files.length);
  const galleryId = await pickGallery(services, title);
  await uploadWithProgress(services, galleryId, files, { profileId: profile.id });
}
