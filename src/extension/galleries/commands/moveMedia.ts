// Move Up / Move Down / Move to Top on a media row, or from the keyboard on the row the focus
// outline is on (mediaArgs.ts): the keyboard way to what dragging does. The view shows the new
// order at once and the service's order once it answered; a failure puts the old order back and
// is reported.
import * as vscode from 'vscode';
import type * as Core from '../../../core';
import type { CommandServices } from '../../commands/commandTable';
import { findMediaArg, isKeyOnOtherRow, mediaArgOf } from './mediaArgs';

async function move(services: CommandServices, arg: unknown, command: string, place: Core.MediaPlace | { step: -1 | 1 }): Promise<boolean> {
  const found = findMediaArg(services, arg);
  // The keys work anywhere in the view: on a gallery or spot row there is nothing to move.
  if (!found && isKeyOnOtherRow(arg)) return false;
  const target = found ?? mediaArgOf(services, arg, command);
  return services.galleriesView.reorder({ profileId: target.profileId, galleryId: target.galleryId, mediaIds: [target.mediaId], place });
}

export const moveMediaUp = (services: CommandServices, arg?: unknown) => move(services, arg, vscode.l10n.t('Move Up'), { step: -1 });
export const moveMediaDown = (services: CommandServices, arg?: unknown) => move(services, arg, vscode.l10n.t('Move Down'), { step: 1 });
export const moveMediaToTop = (services: CommandServices, arg?: unknown) => move(services, arg, vscode.l10n.t('Move to Top'), 'top');
