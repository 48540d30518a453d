// Reloads one gallery's media (node button, and the "Retry" hint under a failed gallery).
import type { ExtensionServices } from '../../platform/services';
import { galleriesView, galleryIdOf, profileIdOf } from './galleryArgs';

export function refreshGallery(services: ExtensionServices, node?: unknown): void {
  const galleryId = galleryIdOf(node);
  if (galleryId === undefined) galleriesView(services).refreshAll();
  else galleriesView(services).refreshGallery(galleryId, profileIdOf(node));
}
