// One media item of a gallery: its file name, an icon for its kind, every attribute on hover.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { CONTEXT_VALUES, type TreeNode } from './treeNode';

/** ThemeIcons follow the user's theme and need no files of our own. */
export function mediaIcon(mimeType: string): vscode.ThemeIcon {
  const kind = mimeType.split('/')[0]?.toLowerCase();
  switch (kind) {
    case 'image':
      return new vscode.ThemeIcon('file-media');
    case 'video':
      return new vscode.ThemeIcon('play');
    case 'audio':
      return new vscode.ThemeIcon('unmute');
    default:
      return new vscode.ThemeIcon('file');
  }
}

/**
 * The file's address from the spotImport.mediaUrlTemplate setting ({file}, {id}); undefined when
 * the setting is empty or does not give an http(s) address, since the service itself names none.
 */
export function mediaPreviewUrl(template: string, media: Pick<Core.Media, 'id' | 'file'>): vscode.Uri | undefined {
  if (!template) return undefined;
  const address = template.replaceAll('{file}', encodeURIComponent(media.file)).replaceAll('{id}', String(media.id));
  try {
    const uri = vscode.Uri.parse(address, true);
    return uri.scheme === 'https' || uri.scheme === 'http' ? uri : undefined;
  } catch {
    return undefined;
  }
}

function attributeTable(media: Core.Media, preview: vscode.Uri | undefined): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(`**${escapeCell(media.file)}**\n\n`);
  if (preview) {
    const link = preview.toString(true).replace(/\(/g, '%28').replace(/\)/g, '%29'); // parentheses would end the link
    if (media.mimeType.startsWith('image/')) tooltip.appendMarkdown(`![${escapeCell(media.file)}](${link}|height=120)\n\n`);
    tooltip.appendMarkdown(`[Open ${escapeCell(media.file)}](${link})\n\n`);
  }
  tooltip.appendMarkdown(`| Attribute | Value |\n|---|---|\n`);
  const rows: Array<[string, unknown]> = [['id', media.id], ['mimeType', media.mimeType], ...Object.entries(media.attributes)];
  const seen = new Set<string>();
  for (const [name, value] of rows) {
    if (seen.has(name)) continue;
    seen.add(name);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    tooltip.appendMarkdown(`| ${escapeCell(name)} | ${escapeCell(text ?? '')} |\n`);
  }
  return tooltip;
}

/** Server text goes into a Markdown table: keep it from breaking the table or becoming markup. */
function escapeCell(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&').replace(/\r?\n/g, ' ');
}

export class MediaNode implements TreeNode {
  static readonly contextValue = CONTEXT_VALUES.media;
  readonly id: string;

  constructor(
    readonly parent: TreeNode & { galleryId: number },
    readonly media: Core.Media,
    /** From spotImport.mediaUrlTemplate: clicking the node opens it. */
    private readonly preview?: vscode.Uri,
  ) {
    this.id = `${parent.id}/media/${media.id}`;
  }

  get mediaId(): number {
    return this.media.id;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.media.file, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.contextValue = MediaNode.contextValue;
    item.description = this.media.mimeType;
    item.iconPath = mediaIcon(this.media.mimeType);
    item.tooltip = attributeTable(this.media, this.preview);
    if (this.preview) item.command = { title: 'Open Media', command: 'vscode.open', arguments: [this.preview] };
    return item;
  }

  getChildren(): TreeNode[] {
    return [];
  }
}
