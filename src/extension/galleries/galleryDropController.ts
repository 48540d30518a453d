// Drag and drop in the Galleries view. Files dragged from the Explorer onto a gallery are
// uploaded into it (the drop hands them to the upload command, so it gets the same progress,
// cancel and report). Media dragged within their gallery change its order: the dragged item takes
// the place of the one it is dropped on; dropped on the gallery's own row it goes first, on
// "Load more…" last.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import type { UiPrompts } from '../platform/services';
import { MEDIA_DRAG_TYPE, URI_LIST } from './viewIds';
import type { ReorderRequest } from './galleryReorder';
import { LoadMoreNode } from './nodes/loadMoreNode';
import { MediaNode } from './nodes/mediaNode';
import type { TreeNode } from './nodes/treeNode';
import { COMMAND } from '../platform/commandIds';

/** text/uri-list (RFC 2483): one URI per line, lines starting with # are comments. */
function parseUriList(text: string): vscode.Uri[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'))
    .flatMap((line) => {
      try {
        return [vscode.Uri.parse(line, true)];
      } catch {
        return [];
      }
    });
}

type GalleryLike = TreeNode & { galleryId: number; profileId?: string };

/** The gallery a drop target belongs to: the gallery itself, or the gallery of a row under it. */
function galleryOf(node: TreeNode | undefined): GalleryLike | undefined {
  for (let current = node; current; current = current.parent) {
    if (typeof (current as { galleryId?: unknown }).galleryId === 'number') return current as GalleryLike;
  }
  return undefined;
}

/** Where media dropped on `target` go, or undefined when `target` is not in their gallery. */
function reorderForDrop(dragged: readonly MediaNode[], target: TreeNode | undefined, order: readonly number[]): ReorderRequest | undefined {
  const first = dragged[0];
  if (!first || dragged.some((node) => node.galleryId !== first.galleryId || node.profileId !== first.profileId)) return undefined;
  const base = { profileId: first.profileId, galleryId: first.galleryId, mediaIds: dragged.map((node) => node.mediaId) };
  let place: Core.MediaPlace;
  if (target instanceof MediaNode) {
    if (target.galleryId !== first.galleryId || target.profileId !== first.profileId) return undefined;
    // Moving down, the dragged item lands after the target; moving up, before it.
    place = order.indexOf(first.mediaId) < order.indexOf(target.mediaId) ? { after: target.mediaId } : { before: target.mediaId };
  } else if (target instanceof LoadMoreNode) {
    if (target.parent.galleryId !== first.galleryId) return undefined;
    place = 'bottom';
  } else {
    const gallery = galleryOf(target);
    if (!gallery || gallery !== target || gallery.galleryId !== first.galleryId || gallery.profileId !== first.profileId) return undefined;
    place = 'top';
  }
  return { ...base, place };
}

export interface DropActions {
  /** The gallery's media ids in their current order (from the cache), to tell up from down. */
  orderOf(profileId: string, galleryId: number): readonly number[];
  reorder(request: ReorderRequest): Promise<unknown>;
  /** Shows a failed reorder (there is no command wrapper around a drop). */
  report(error: unknown): void;
}

export class GalleryDropController implements vscode.TreeDragAndDropController<TreeNode> {
  readonly dropMimeTypes = [URI_LIST, MEDIA_DRAG_TYPE];
  readonly dragMimeTypes = [MEDIA_DRAG_TYPE];

  constructor(
    private readonly ui: () => UiPrompts,
    private readonly actions: DropActions,
  ) {}

  handleDrag(source: readonly TreeNode[], dataTransfer: vscode.DataTransfer): void {
    const media = source.filter((node): node is MediaNode => node instanceof MediaNode);
    // Only media can be dragged; anything else leaves the drag empty.
    if (media.length > 0 && media.length === source.length) dataTransfer.set(MEDIA_DRAG_TYPE, new vscode.DataTransferItem(media));
  }

  async handleDrop(target: TreeNode | undefined, dataTransfer: vscode.DataTransfer, token: vscode.CancellationToken): Promise<void> {
    const dragged = dataTransfer.get(MEDIA_DRAG_TYPE)?.value as unknown;
    if (Array.isArray(dragged) && dragged.length > 0 && dragged.every((node) => node instanceof MediaNode)) {
      await this.dropMedia(dragged as MediaNode[], target);
      return;
    }
    const item = dataTransfer.get(URI_LIST);
    if (!item) return;
    const uris = parseUriList(await item.asString()).filter((uri) => uri.scheme === 'file');
    if (token.isCancellationRequested || uris.length === 0) return;
    const gallery = galleryOf(target);
    if (!gallery) {
      await this.ui().showInformationMessage(vscode.l10n.t('Drop the files onto a gallery to upload them there.'));
      return;
    }
    // Not awaited: the drop returns at once and the upload shows its own progress notification.
    void vscode.commands.executeCommand(COMMAND.uploadToGalleryNode, gallery, uris);
  }

  private async dropMedia(dragged: MediaNode[], target: TreeNode | undefined): Promise<void> {
    const first = dragged[0];
    const request = reorderForDrop(dragged, target, this.actions.orderOf(first.profileId, first.galleryId));
    if (!request) {
      if (galleryOf(target)?.galleryId !== first.galleryId)
        await this.ui().showInformationMessage(vscode.l10n.t('Media can be put in order only within their own gallery.'));
      return;
    }
    try {
      await this.actions.reorder(request);
    } catch (error) {
      this.actions.report(error);
    }
  }
}
