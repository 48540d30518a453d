// The "Load more" node: show the next page of the gallery's media.
import type { CommandServices } from '../../commands/commandTable';
import { galleryIdOf, profileIdOf } from './galleryArgs';

export function loadMoreMedia(services: CommandServices, node?: unknown): void {
  const galleryId = galleryIdOf(node);
  if (galleryId !== undefined) services.galleriesView.showMore(galleryId, profileIdOf(node));
}
