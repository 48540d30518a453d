// Open Media (a media row's context menu, a tile of the gallery grid, a click on a row whose
// profile has no media URL template): the file opens in VS Code's own viewer, read through the
// read-only media file system (spot-media:), after a download with progress, cancel and, for large
// files, a question. Without a media URL template it says how to set one, before anything is sent.
// (A click on a row that can show its file runs vscode.open itself: see MediaNode.)
import * as vscode from 'vscode';
import { ActionableError } from '../../platform/errors';
import type { CommandServices } from '../../commands/commandTable';
import { mediaAddressOf } from '../media/mediaFileSystem';
import { mediaUrlTemplateFor, noTemplateError } from '../media/mediaTemplate';
import { mediaArgOf } from './mediaArgs';
import { BUILT_IN_COMMAND } from '../../platform/commandIds';

/** `options`: { viewColumn } (the grid opens files beside itself). */
export async function openMedia(services: CommandServices, arg?: unknown, options?: unknown): Promise<vscode.Uri> {
  const viewColumn = (options as { viewColumn?: unknown } | undefined)?.viewColumn;
  const target = mediaArgOf(services, arg, vscode.l10n.t('Open Media'));
  const view = services.galleriesView;
  const profile = services.profiles.get(target.profileId);
  if (!profile) throw new ActionableError(vscode.l10n.t('The profile of this media item was removed.'));
  // The sandbox's template is known once it runs (its media were listed, so it does).
  if (profile.kind !== 'sandbox' && !mediaUrlTemplateFor(profile)) throw noTemplateError(profile);
  let media = target.media;
  if (!media) {
    const load = await view.provider.cache.load(target.profileId, target.galleryId);
    if (load.status === 'failed') throw new ActionableError(vscode.l10n.t('Gallery {0} could not be read: {1}', target.galleryId, load.failure.message));
    media = load.gallery.media.find((candidate) => candidate.id === target.mediaId);
    if (!media) throw new ActionableError(vscode.l10n.t('Media {0} is not in gallery {1} (any more): refresh the gallery.', target.mediaId, target.galleryId));
  }
  const core = await services.core();
  const uri = mediaAddressOf(core, target.profileId, target.galleryId, media);
  await view.mediaFiles.load(uri);
  await vscode.commands.executeCommand(BUILT_IN_COMMAND.open, uri, { preview: true, ...(typeof viewColumn === 'number' ? { viewColumn } : {}) });
  return uri;
}
