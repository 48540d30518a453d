// The "Load more" node: show the next page of the gallery's media.
import type { ExtensionServices } from '../../platform/services';
import { galleriesView, galleryIdOf, profileIdOf } from './galleryArgs';

export function loadMoreMedia(services: ExtensionServices, node?: unknown): void {
  const galleryId = galleryIdOf(node);
  if (galleryId !== undefined) galleriesView(services).showMore(galleryId, profileIdOf(node));
}
