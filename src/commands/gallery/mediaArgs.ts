// Media commands are called from media rows (a MediaNode), from the gallery grid and tests
// ({ profileId?, galleryId, mediaId }), and from keybindings (nothing: the view's selection).
import type * as Core from '../../core';
import type { CommandServices } from '../commandTable';
import { ActionableError } from '../../platform/errors';
import { galleryIdOf, profileIdOf } from './galleryArgs';

export interface MediaArg {
  profileId: string;
  galleryId: number;
  mediaId: number;
  /** The record, when the caller has it (a row does). */
  media?: Core.Media;
}

/** The media item an argument names, else the one selected in the Galleries view. */
export function mediaArgOf(services: CommandServices, arg: unknown, command: string): MediaArg {
  const found = findMediaArg(services, arg);
  if (!found) throw new ActionableError(`${command} works on a media item: select one in the Galleries view first.`);
  return found;
}

/** As mediaArgOf, but undefined when there is none (a key pressed on a gallery or spot row). */
export function findMediaArg(services: CommandServices, arg: unknown): MediaArg | undefined {
  return readMediaArg(services, arg) ?? readMediaArg(services, services.galleriesView.treeView.selection[0]);
}

function readMediaArg(services: CommandServices, arg: unknown): MediaArg | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const value = arg as { mediaId?: unknown; media?: Core.Media };
  const galleryId = galleryIdOf(arg);
  const profileId = profileIdOf(arg) ?? services.profiles.active()?.id;
  if (typeof value.mediaId !== 'number' || galleryId === undefined || !profileId) return undefined;
  return { profileId, galleryId, mediaId: value.mediaId, ...(value.media && typeof value.media === 'object' ? { media: value.media } : {}) };
}
