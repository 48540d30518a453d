// What the rest of the extension (commands, import results, tests) may ask of the Galleries view.
import type * as vscode from 'vscode';
import type { GalleriesTreeProvider } from './galleriesTreeProvider';
import type { GalleryDropController } from './galleryDropController';
import type { TreeNode } from './nodes/treeNode';

export interface GalleriesView {
  /** The data provider itself; integration tests read the tree through it. */
  readonly provider: GalleriesTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  /** Handles files dropped on the tree; tests drop through it as VS Code would. */
  readonly dropController: GalleryDropController;
  /** Regroups the roots and reloads every gallery's media. */
  refreshAll(): void;
  /** Reloads one gallery's media (after an upload, or from its node). */
  refreshGallery(galleryId: number): void;
  /** Shows the next page of a gallery's media. */
  showMore(galleryId: number): void;
  /** Shows, selects and expands the gallery's node; false when the gallery is not in the view. */
  reveal(galleryId: number): Promise<boolean>;
  /** Opens the gallery as a read-only JSON document. */
  openJson(galleryId: number): Promise<void>;
}
