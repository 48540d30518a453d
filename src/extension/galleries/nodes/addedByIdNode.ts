// Groups galleries the user added by id: no import told us their spot or field.
import * as vscode from 'vscode';
import type { KnownGallery } from '../../platform/domain';
import { createGalleryNode, type GalleryNode } from './galleryNode';
import { CONTEXT_VALUES, type NodeContext, type TreeNode } from './treeNode';

export class AddedByIdNode implements TreeNode {
  static readonly contextValue = CONTEXT_VALUES.addedById;
  readonly id: string;
  readonly parent = undefined;
  readonly galleries: GalleryNode[];

  constructor(known: KnownGallery[], context: NodeContext) {
    this.id = `${context.profileId}/addedById`;
    this.galleries = [...known].sort((a, b) => a.galleryId - b.galleryId).map((gallery) => createGalleryNode(this, gallery, context));
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Added by id'), vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.contextValue = AddedByIdNode.contextValue;
    item.description = this.galleries.length === 1 ? vscode.l10n.t('1 gallery') : vscode.l10n.t('{0} galleries', this.galleries.length);
    item.iconPath = new vscode.ThemeIcon('symbol-numeric');
    return item;
  }

  getChildren(): TreeNode[] {
    return this.galleries;
  }
}
