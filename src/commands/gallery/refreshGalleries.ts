// View title button: regroup from the store and reload every gallery's media.
import type { ExtensionServices } from '../../platform/services';
import { galleriesView } from './galleryArgs';

export function refreshGalleries(services: ExtensionServices): void {
  galleriesView(services).refreshAll();
}
