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
    const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.contextValue = LoadMoreNode.contextValue;
    item.description = `${this.shown} of ${this.total} shown`;
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.command = { title: 'Load More', command: COMMAND.loadMoreMedia, arguments: [this.parent] };
    return item;
  }

  getChildren(): TreeNode[] {
    return [];
  }
}
