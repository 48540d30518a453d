// Shows a gallery as the service returns it, in a read-only JSON document.
import type { ExtensionServices } from '../../platform/services';
import { galleriesView, galleryIdOf, profileIdOf } from './galleryArgs';
import { pickGallery } from './pickGallery';

export async function openGalleryJson(services: ExtensionServices, node?: unknown): Promise<void> {
  const galleryId = galleryIdOf(node) ?? (await pickGallery(services, 'Open the JSON of…'));
  await galleriesView(services).openJson(galleryId, profileIdOf(node));
}
