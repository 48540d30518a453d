// View title button: regroup from the store and reload every gallery's media.
import type { CommandServices } from '../../commands/commandTable';

export function refreshGalleries(services: CommandServices): void {
  services.galleriesView.refreshAll();
}
