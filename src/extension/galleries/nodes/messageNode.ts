// A line of text in the tree: how failures and hints appear, instead of pop-ups that interrupt
// the user while they only expanded a node.
import * as vscode from 'vscode';
import { CONTEXT_VALUES, type TreeNode } from './treeNode';

export interface MessageOptions {
  icon?: string;
  tooltip?: string;
  command?: vscode.Command;
}

export class MessageNode implements TreeNode {
  static readonly contextValue = CONTEXT_VALUES.message;

  constructor(
    readonly parent: TreeNode | undefined,
    readonly id: string,
    readonly label: string,
    private readonly options: MessageOptions = {},
  ) {}

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.contextValue = MessageNode.contextValue;
    item.iconPath = new vscode.ThemeIcon(this.options.icon ?? 'info');
    item.tooltip = this.options.tooltip ?? this.label;
    item.command = this.options.command;
    return item;
  }

  getChildren(): TreeNode[] {
    return [];
  }
}
