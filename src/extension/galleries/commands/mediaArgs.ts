// Media commands are called from media rows (a MediaNode), from the gallery grid and tests
// ({ profileId?, galleryId, mediaId }), and from keys. package.json's keybindings pass
// { $treeViewId, $focusedTreeItem: true }, which VS Code's extension host replaces with the row the
// focus outline is on, as it does for a view's title bar actions (no API names that row; without
// it a key would get nothing). When VS Code names no row (none has the focus outline, a keybinding
// of the user's own without these arguments, a VS Code that leaves them as they are), the row
// selected in the Galleries view is meant.
import * as vscode from 'vscode';
import type * as Core from '../../../core';
import type { CommandServices } from '../../commands/commandTable';
import { ActionableError } from '../../platform/errors';
import { galleryIdOf, profileIdOf } from './galleryArgs';

export interface MediaArg {
  profileId: string;
  galleryId: number;
  mediaId: number;
  /** The record, when the caller has it (a row does). */
  media?: Core.Media;
}

/** The media item an argument names, else the one selected in the Galleries view. `command`: its title, as the user knows it. */
export function mediaArgOf(services: CommandServices, arg: unknown, command: string): MediaArg {
  const found = findMediaArg(services, arg);
  if (!found) throw new ActionableError(vscode.l10n.t('{0} works on a media item: select one in the Galleries view first.', command));
  return found;
}

/** As mediaArgOf, but undefined when there is none (a key pressed on a gallery or spot row). */
export function findMediaArg(services: CommandServices, arg: unknown): MediaArg | undefined {
  return readMediaArg(services, namesNoRow(arg) ? services.galleriesView.treeView.selection[0] : arg);
}

/**
 * For an argument that names no media item: whether it came from a key, pressed on another row (a
 * gallery, a spot, a message) or with no row to act on. There is nothing to do then, and no reason
 * for an error. (Menus offer media commands on media rows only: another row can only come from a key.)
 */
export function isKeyOnOtherRow(arg: unknown): boolean {
  return namesNoRow(arg) || isTreeRow(arg);
}

/** No row named: nothing, or the keybinding's request for the focused row as it was written. */
function namesNoRow(arg: unknown): boolean {
  return arg === undefined || arg === null || (typeof arg === 'object' && '$focusedTreeItem' in arg);
}

/** A node of the Galleries view (each has getTreeItem). */
function isTreeRow(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && typeof (arg as { getTreeItem?: unknown }).getTreeItem === 'function';
}

function readMediaArg(services: CommandServices, arg: unknown): MediaArg | undefined {
  if (!arg || typeof arg !== 'object') return undefined;
  const value = arg as { mediaId?: unknown; media?: Core.Media };
  const galleryId = galleryIdOf(arg);
  const profileId = profileIdOf(arg) ?? services.profiles.active()?.id;
  if (typeof value.mediaId !== 'number' || galleryId === undefined || !profileId) return undefined;
  return { profileId, galleryId, mediaId: value.mediaId, ...(value.media && typeof value.media === 'object' ? { media: value.media } : {}) };
}
