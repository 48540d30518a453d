// One media item of a gallery: its file name, an icon for its kind, every attribute on hover.
// Clicking it opens the file in VS Code's own viewer; an image's tooltip shows the picture, added
// when the tooltip is asked for (GalleriesTreeProvider.resolveTreeItem), so rows cost no download
// until someone hovers.
//
// The row opens as a file of the Explorer does: its command is VS Code's vscode.open, the one
// command to which a tree hands the gesture's own options. A single click previews the file and
// leaves the keyboard in the view (where Alt+Up/Down act on the row); a double click or Enter keeps
// the tab and moves the keyboard into it. A command of ours would be run alike for all three. The
// file downloads as the editor reads it (MediaFileSystem). A row whose profile has no media URL
// template runs Open Media instead, which says how to set one.
import * as vscode from 'vscode';
import { escapeMarkdown } from '../../../core/text/markdown';
import type * as Core from '../../../core';
import { SET_MEDIA_TEMPLATE_COMMAND } from '../media/mediaTemplate';
import { CONTEXT_VALUES, type TreeNode } from './treeNode';
import { BUILT_IN_COMMAND, COMMAND } from '../../platform/commandIds';

export const OPEN_MEDIA_COMMAND = COMMAND.openMedia;

/** ThemeIcons follow the user's theme and need no files of our own. */
function mediaIcon(mimeType: string): vscode.ThemeIcon {
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

/** The last part of a stored name ("000037/2026/09/23/ab12.jpg" shows as "ab12.jpg"). */
export function shortFileName(file: string): string {
  return file.split('/').filter(Boolean).at(-1) ?? file;
}

export interface MediaRow {
  /** Whether the profile has a media URL template (else the tooltip says how to set one). */
  hasTemplate: boolean;
  /** 1-based place in the gallery, and how many media it has. */
  position: number;
  count: number;
  /** The file's spot-media: address, when it can be shown (the profile has a template). */
  address?: vscode.Uri;
}

/** "2 of 3": a media item's place in its gallery. */
function mediaPosition(position: number, count: number): string {
  return vscode.l10n.t('{0} of {1}', position, count);
}

/** The tooltip: the name, the picture when there is one, the place, every attribute. */
export function mediaTooltip(media: Core.Media, row: MediaRow, picture?: string): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(`**${escapeCell(shortFileName(media.file))}** · ${mediaPosition(row.position, row.count)}\n\n`);
  if (picture) {
    // Parentheses would end the link; an https address or a data URI has none otherwise.
    tooltip.appendMarkdown(`![${escapeCell(shortFileName(media.file))}](${picture.replace(/\(/g, '%28').replace(/\)/g, '%29')}|height=160)\n\n`);
  }
  if (row.hasTemplate) {
    tooltip.appendMarkdown(`${vscode.l10n.t('Click to open it here.')}\n\n`);
  } else {
    const link = `[${vscode.l10n.t('Set Media URL Template…')}](command:${SET_MEDIA_TEMPLATE_COMMAND})`;
    tooltip.appendMarkdown(`${vscode.l10n.t("Set the profile's media URL template to see it here: {0}", link)}\n\n`);
    tooltip.isTrusted = { enabledCommands: [SET_MEDIA_TEMPLATE_COMMAND] };
  }
  tooltip.appendMarkdown(`| ${escapeCell(vscode.l10n.t('Attribute'))} | ${escapeCell(vscode.l10n.t('Value'))} |\n|---|---|\n`);
  const rows: Array<[string, unknown]> = [['id', media.id], ['file', media.file], ['mimeType', media.mimeType], ...Object.entries(media.attributes)];
  const seen = new Set<string>();
  for (const [name, value] of rows) {
    if (seen.has(name)) continue;
    seen.add(name);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    tooltip.appendMarkdown(`| ${escapeCell(name)} | ${escapeCell(text ?? '')} |\n`);
  }
  return tooltip;
}

/** Server text goes into a Markdown table: on one line, and kept from breaking the table or becoming markup. */
function escapeCell(text: string): string {
  return escapeMarkdown(text.replace(/\r\n|[\r\n]/g, ' '));
}

export class MediaNode implements TreeNode {
  static readonly contextValue = CONTEXT_VALUES.media;
  readonly id: string;

  constructor(
    readonly parent: TreeNode & { galleryId: number; profileId: string },
    readonly media: Core.Media,
    readonly row: MediaRow,
  ) {
    this.id = `${parent.id}/media/${media.id}`;
  }

  get mediaId(): number {
    return this.media.id;
  }

  get galleryId(): number {
    return this.parent.galleryId;
  }

  get profileId(): string {
    return this.parent.profileId;
  }

  get isImage(): boolean {
    return this.media.mimeType.toLowerCase().startsWith('image/');
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(shortFileName(this.media.file), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.contextValue = MediaNode.contextValue;
    item.description = this.media.mimeType;
    // A sentence for screen readers: the name, the kind, and where it is in the gallery's order.
    item.accessibilityInformation = { label: `${shortFileName(this.media.file)}, ${this.media.mimeType}, ${mediaPosition(this.row.position, this.row.count)}` };
    item.iconPath = mediaIcon(this.media.mimeType);
    // Images get their picture when the tooltip is resolved; the rest is complete now.
    if (!this.isImage || !this.row.hasTemplate) item.tooltip = mediaTooltip(this.media, this.row);
    const title = vscode.l10n.t('Open Media');
    item.command = this.row.address
      ? { title, command: BUILT_IN_COMMAND.open, arguments: [this.row.address] }
      : { title, command: OPEN_MEDIA_COMMAND, arguments: [this] };
    return item;
  }

  getChildren(): TreeNode[] {
    return [];
  }
}
