// Reloads one gallery's media (node button, and the "Retry" hint under a failed gallery).
import type { CommandServices } from '../../commands/commandTable';
import { galleryIdOf, profileIdOf } from './galleryArgs';

export function refreshGallery(services: CommandServices, node?: unknown): void {
  const galleryId = galleryIdOf(node);
  if (galleryId === undefined) services.galleriesView.refreshAll();
  else services.galleriesView.refreshGallery(galleryId, profileIdOf(node));
}
