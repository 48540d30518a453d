// "Upload Media…" on a gallery node, from an import result ({ galleryId }), from a drop (with
// the dropped files), from "Upload the Rest" ({ galleryId, profileId }, files) and from the
// palette (asks for the gallery, then the files).
import * as vscode from 'vscode';
import type { CommandServices } from '../../commands/commandTable';
import { requireActiveProfile, fileUris, galleryIdOf, profileIdOf } from './galleryArgs';
import { pickGallery } from './pickGallery';
import { pickMediaFiles } from './pickFiles';
import { uploadWithProgress } from './uploadMedia';

export async function uploadToGalleryNode(services: CommandServices, target?: unknown, files?: unknown): Promise<void> {
  // A node knows its profile; otherwise the gallery belongs to the profile active right now.
  const profileId = profileIdOf(target) ?? requireActiveProfile(services).id;
  const galleryId = galleryIdOf(target) ?? (await pickGallery(services, vscode.l10n.t('Upload media to…')));
  let uris = fileUris(Array.isArray(files) ? files : []);
  if (uris.length === 0) uris = await pickMediaFiles(services, vscode.l10n.t('Upload media to gallery {0}', galleryId));
  await uploadWithProgress(services, galleryId, uris, { profileId });
}
