// The galleries feature's commands; registerCommands.ts wraps each one (errors, cancel, log).
import type { CommandTable } from '../../commands/commandTable';
import { addGalleryById } from './addGalleryById';
import { copyGalleryId } from './copyGalleryId';
import { copyMediaId } from './copyMediaId';
import { loadMoreMedia } from './loadMoreMedia';
import { markSpotActive } from './markSpotActive';
import { moveMediaDown, moveMediaToTop, moveMediaUp } from './moveMedia';
import { openGalleryGrid } from './openGalleryGrid';
import { openMedia } from './openMedia';
import { setMediaUrlTemplate } from './setMediaUrlTemplate';
import { openGalleryJson } from './openGalleryJson';
import { refreshGalleries } from './refreshGalleries';
import { refreshGallery } from './refreshGallery';
import { removeGallery } from './removeGallery';
import { revealGallery } from './revealGallery';
import { uploadToGallery } from './uploadToGallery';
import { uploadToGalleryNode } from './uploadToGalleryNode';
import { COMMAND } from '../../platform/commandIds';

export const galleryCommands: CommandTable = {
  [COMMAND.refreshGalleries]: refreshGalleries,
  [COMMAND.revealGallery]: revealGallery,
  [COMMAND.refreshGallery]: refreshGallery,
  [COMMAND.addGalleryById]: addGalleryById,
  [COMMAND.copyGalleryId]: copyGalleryId,
  [COMMAND.removeGallery]: removeGallery,
  [COMMAND.openGalleryJson]: openGalleryJson,
  [COMMAND.uploadToGalleryNode]: uploadToGalleryNode,
  [COMMAND.loadMoreMedia]: loadMoreMedia,
  [COMMAND.openGalleryGrid]: openGalleryGrid,
  [COMMAND.copyMediaId]: copyMediaId,
  [COMMAND.openMedia]: openMedia,
  [COMMAND.moveMediaUp]: moveMediaUp,
  [COMMAND.moveMediaDown]: moveMediaDown,
  [COMMAND.moveMediaToTop]: moveMediaToTop,
  [COMMAND.setMediaUrlTemplate]: setMediaUrlTemplate,
  [COMMAND.uploadToGallery]: uploadToGallery,
  [COMMAND.markSpotActive]: markSpotActive,
};
