// Groups the galleries that one import returned under their spot (source_id and spot id).
import * as vscode from 'vscode';
import type { KnownGallery } from '../../platform/domain';
import { createGalleryNode, type GalleryNode } from './galleryNode';
import { CONTEXT_VALUES, type NodeContext, type TreeNode } from './treeNode';

export class SpotNode implements TreeNode {
  static readonly contextValue = CONTEXT_VALUES.spot;
  readonly id: string;
  readonly parent = undefined;
  /** Built once, so TreeView.reveal finds the very instances getChildren returned. */
  readonly galleries: GalleryNode[];
  /** The profile whose galleries these are (commands on the node act for it). */
  readonly profileId: string;

  constructor(
    readonly spot: { spotId: number; sourceId: string },
    known: KnownGallery[],
    context: NodeContext,
  ) {
    this.id = `${context.profileId}/spot/${spot.spotId}`;
    this.profileId = context.profileId;
    this.galleries = [...known]
      .sort((a, b) => (a.field ?? '').localeCompare(b.field ?? '') || a.galleryId - b.galleryId)
      .map((gallery) => createGalleryNode(this, gallery, context));
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.spot.sourceId, vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.contextValue = SpotNode.contextValue;
    item.description = vscode.l10n.t('spot {0}', this.spot.spotId);
    item.accessibilityInformation = { label: vscode.l10n.t('Spot {0}, spot id {1}', this.spot.sourceId, this.spot.spotId) };
    item.iconPath = new vscode.ThemeIcon('location');
    item.tooltip = vscode.l10n.t('Spot {0}, source_id {1}', this.spot.spotId, this.spot.sourceId);
    return item;
  }

  getChildren(): TreeNode[] {
    return this.galleries;
  }
}
