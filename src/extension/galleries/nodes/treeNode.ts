// The shape every node of the Galleries view shares. Each node kind is its own class with a
// constant contextValue, so package.json menus can target kinds with `viewItem == x`.
import type * as vscode from 'vscode';
import type * as Core from '../../../core';
import type { FieldLabels } from '../fieldLabels';
import type { GalleryCache } from '../galleryCache';

export interface TreeNode {
  /** Stable across rebuilds (VS Code keeps expansion and selection by id). */
  readonly id: string;
  readonly parent: TreeNode | undefined;
  getTreeItem(): vscode.TreeItem;
  getChildren(): TreeNode[] | Promise<TreeNode[]>;
}

/** What nodes need from the view without knowing the provider. */
export interface NodeContext {
  readonly extensionUri: vscode.Uri;
  readonly cache: GalleryCache;
  readonly profileId: string;
  /** Labels of gallery fields from the topic definitions. */
  readonly labels: FieldLabels;
  /** Whether the profile's media can be fetched (it has a media URL template, or the setting one). */
  hasMediaTemplate(): boolean;
  /** The core (loaded by then: the gallery was read with it), for the media's display names. */
  core(): Promise<typeof Core>;
  /** Asks for a node's row to be drawn again (a gallery's count is known only after it loads). */
  changed(node: TreeNode): void;
}

export const CONTEXT_VALUES = {
  spot: 'spot',
  addedById: 'addedById',
  gallery: 'gallery',
  galleryPending: 'galleryPending',
  media: 'media',
  loadMore: 'loadMore',
  message: 'message',
} as const;
