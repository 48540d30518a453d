// "Upload Media…" on a gallery node, from an import result ({ galleryId }), from a drop (with
// the dropped files) and from the palette (asks for the gallery, then the files).
import { required } from '../../platform/cancellation';
import type { ExtensionServices } from '../../platform/services';
import { fileUris, galleryIdOf } from './galleryArgs';
import { pickGallery } from './pickGallery';
import { uploadWithProgress } from './uploadMedia';
import { MEDIA_FILTERS } from './uploadToGallery';

export async function uploadToGalleryNode(services: ExtensionServices, target?: unknown, files?: unknown): Promise<void> {
  const galleryId = galleryIdOf(target) ?? (await pickGallery(services, 'Upload media to…'));
  let uris = fileUris(Array.isArray(files) ? files : []);
  if (uris.length === 0) {
    uris = required(
      await services.ui.showOpenDialog({
        canSelectMany: true,
        canSelectFiles: true,
        canSelectFolders: false,
        openLabel: 'Upload',
        title: `Upload media to gallery ${galleryId}`,
        filters: MEDIA_FILTERS,
      }),
    );
    if (uris.length === 0) return;
  }
  await uploadWithProgress(services, galleryId, uris);
}
