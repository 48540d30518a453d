// What the rest of the extension (commands, import results, tests) may ask of the Galleries view.
// `profileId` names the profile a gallery belongs to; absent, the active profile's is meant.
import type * as vscode from 'vscode';
import type { GalleriesTreeProvider } from './galleriesTreeProvider';
import type { GalleryDropController } from './galleryDropController';
import type { GalleryJsonDocuments } from './galleryJsonDocuments';
import type { GalleryReorder, ReorderRequest } from './galleryReorder';
import type { GalleryGrids } from './grid/galleryGrid';
import type { MediaFileSystem } from './media/mediaFileSystem';
import type { TreeNode } from './nodes/treeNode';

export interface GalleriesView {
  /** The data provider itself; integration tests read the tree through it. */
  readonly provider: GalleriesTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  /** Handles files dropped on the tree, and media dragged within it; tests drop through it as VS Code would. */
  readonly dropController: GalleryDropController;
  /** The read-only gallery documents (tests check their texts are dropped on close). */
  readonly documents: GalleryJsonDocuments;
  /** The read-only file system of media files (spot-media:). */
  readonly mediaFiles: MediaFileSystem;
  /** Reorders media (tests read the weights it remembers). */
  readonly reorderer: GalleryReorder;
  /** The open gallery grids (their code loads with the first one: dist/features.js). */
  readonly grids: Pick<GalleryGrids, 'open' | 'find'>;
  /** Regroups the roots and reloads every gallery's media (a load still running is cancelled). */
  refreshAll(): void;
  /** Reloads one gallery's media (after an upload, or from its node). */
  refreshGallery(galleryId: number, profileId?: string): void;
  /** Shows the next page of a gallery's media. */
  showMore(galleryId: number, profileId?: string): void;
  /**
   * Shows, selects and expands the gallery's node; false when the gallery is not in the view
   * (not known, or it belongs to a profile that is not active).
   */
  reveal(galleryId: number, profileId?: string): Promise<boolean>;
  /** Opens the gallery as a read-only JSON document; `signal` cancels the load as its notification's Cancel does. */
  openJson(galleryId: number, profileId?: string, signal?: AbortSignal): Promise<void>;
  /** Puts media in another order, on the service and in the view; rejects (old order shown) on failure. */
  reorder(request: ReorderRequest): Promise<boolean>;
}
