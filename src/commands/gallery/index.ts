// The galleries feature's commands; registerCommands.ts wraps each one (errors, cancel, log).
import type { CommandTable } from '../commandTable';
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

export const galleryCommands: CommandTable = {
  'spotImport.galleries.refresh': refreshGalleries,
  'spotImport.galleries.reveal': revealGallery,
  'spotImport.gallery.refresh': refreshGallery,
  'spotImport.gallery.addById': addGalleryById,
  'spotImport.gallery.copyId': copyGalleryId,
  'spotImport.gallery.remove': removeGallery,
  'spotImport.gallery.openJson': openGalleryJson,
  'spotImport.gallery.upload': uploadToGalleryNode,
  'spotImport.gallery.loadMore': loadMoreMedia,
  'spotImport.gallery.openGrid': openGalleryGrid,
  'spotImport.media.copyId': copyMediaId,
  'spotImport.media.openFile': openMedia,
  'spotImport.media.moveUp': moveMediaUp,
  'spotImport.media.moveDown': moveMediaDown,
  'spotImport.media.moveToTop': moveMediaToTop,
  'spotImport.setMediaUrlTemplate': setMediaUrlTemplate,
  'spotImport.uploadToGallery': uploadToGallery,
  'spotImport.spot.markActive': markSpotActive,
};
