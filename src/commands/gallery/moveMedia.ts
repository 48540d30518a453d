// Move Up / Move Down / Move to Top on a media row (or, from the keyboard, the selected one): the
// keyboard way to what dragging does. The view shows the new order at once and the service's
// order once it answered; a failure puts the old order back and is reported.
import type * as Core from '../../core';
import type { CommandServices } from '../commandTable';
import { findMediaArg, mediaArgOf } from './mediaArgs';

async function move(services: CommandServices, arg: unknown, command: string, place: Core.MediaPlace | { step: -1 | 1 }): Promise<boolean> {
  // From the keyboard (no argument) the keys apply to any row of the view: on a gallery or spot
  // row there is nothing to move, and no reason for an error.
  const target = arg === undefined ? findMediaArg(services, undefined) : mediaArgOf(services, arg, command);
  if (!target) return false;
  return services.galleriesView.reorder({ profileId: target.profileId, galleryId: target.galleryId, mediaIds: [target.mediaId], place });
}

export const moveMediaUp = (services: CommandServices, arg?: unknown) => move(services, arg, 'Move Up', { step: -1 });
export const moveMediaDown = (services: CommandServices, arg?: unknown) => move(services, arg, 'Move Down', { step: 1 });
export const moveMediaToTop = (services: CommandServices, arg?: unknown) => move(services, arg, 'Move to Top', 'top');
