// The last row of a long media list. Loading more is a display step only: the gallery reply
// already holds every media record, but hundreds of rows at once make the tree slow to use.
import * as vscode from 'vscode';
import { CONTEXT_VALUES, type TreeNode } from './treeNode';
import { COMMAND } from '../../platform/commandIds';

export class LoadMoreNode implements TreeNode {
  static readonly contextValue = CONTEXT_VALUES.loadMore;
  readonly id: string;

  constructor(
    readonly parent: TreeNode & { galleryId: number },
    private readonly shown: number,
    private readonly total: number,
  ) {
    this.id = `${parent.id}/loadMore`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.contextValue = LoadMoreNode.contextValue;
    item.description = vscode.l10n.t('{0} of {1} shown', this.shown, this.total);
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.command = { title: vscode.l10n.t('Load More'), command: COMMAND.loadMoreMedia, arguments: [this.parent] };
    return item;
  }

  getChildren(): TreeNode[] {
    return [];
  }
}
