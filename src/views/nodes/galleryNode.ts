// A gallery the user knows. Its media load only when it is expanded (one GET), stay cached until
// refreshed, and appear a page at a time. A failure becomes message nodes under it.
import * as vscode from 'vscode';
import type { KnownGallery } from '../../platform/services';
import type { GalleryLoad } from '../galleryCache';
import { LoadMoreNode } from './loadMoreNode';
import { readSettings } from '../../platform/settings';
import { MediaNode, mediaPreviewUrl } from './mediaNode';
import { MessageNode } from './messageNode';
import { CONTEXT_VALUES, type NodeContext, type TreeNode } from './treeNode';

export class GalleryNode implements TreeNode {
  static readonly contextValue: string = CONTEXT_VALUES.gallery;
  readonly id: string;

  constructor(
    readonly parent: TreeNode | undefined,
    readonly known: KnownGallery,
    protected readonly context: NodeContext,
  ) {
    this.id = `${context.profileId}/gallery/${known.galleryId}`;
  }

  get galleryId(): number {
    return this.known.galleryId;
  }

  get profileId(): string {
    return this.context.profileId;
  }

  /** Subclasses differ only in this constant, which menus match on. */
  protected get contextValue(): string {
    return GalleryNode.contextValue;
  }

  protected get iconName(): string {
    return 'gallery';
  }

  getTreeItem(): vscode.TreeItem {
    const label = this.known.field ?? `Gallery ${this.galleryId}`;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.contextValue = this.contextValue;
    item.description = this.describe(this.context.cache.peek(this.profileId, this.galleryId));
    item.tooltip = this.tooltip();
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    item.iconPath = {
      light: vscode.Uri.joinPath(media, `${this.iconName}-light.svg`),
      dark: vscode.Uri.joinPath(media, `${this.iconName}-dark.svg`),
    };
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    const wasLoaded = this.context.cache.peek(this.profileId, this.galleryId) !== undefined;
    const load = await this.context.cache.load(this.profileId, this.galleryId);
    // The row's description (state, media count) changes once the first load has answered. Only
    // when the answer was kept: a cancelled load is not, and redrawing would start it again.
    // Redrawn after this call has returned: a change fired while VS Code is still taking these
    // children makes it ask again at once, and the two answers clash over the media rows' ids.
    if (!wasLoaded && this.context.cache.peek(this.profileId, this.galleryId) !== undefined) {
      setTimeout(() => this.context.changed(this), 0);
    }
    if (load.status === 'failed') {
      const { failure } = load;
      return [
        new MessageNode(this, `${this.id}/error`, failure.message, { icon: 'error', tooltip: failure.detail }),
        new MessageNode(this, `${this.id}/hint`, failure.hint.title, {
          icon: 'lightbulb',
          command: {
            title: failure.hint.title,
            command: failure.hint.command,
            arguments: failure.hint.passNode ? [this] : (failure.hint.args ?? []),
          },
        }),
      ];
    }
    const { gallery, shown } = load;
    if (gallery.media.length === 0) {
      return [
        new MessageNode(this, `${this.id}/empty`, 'No media yet', {
          icon: 'cloud-upload',
          tooltip: 'Drop files from the Explorer here, or click to pick files to upload.',
          command: { title: 'Upload Media', command: 'spotImport.gallery.upload', arguments: [this] },
        }),
      ];
    }
    const { mediaUrlTemplate } = readSettings();
    const children: TreeNode[] = gallery.media.slice(0, shown).map((media) => new MediaNode(this, media, mediaPreviewUrl(mediaUrlTemplate, media)));
    if (shown < gallery.media.length) children.push(new LoadMoreNode(this, shown, gallery.media.length));
    return children;
  }

  private describe(load: GalleryLoad | undefined): string {
    const parts: string[] = [];
    if (this.known.field) parts.push(`gallery ${this.galleryId}`);
    if (this.known.pending) parts.push('pending');
    if (load?.status === 'loaded') {
      parts.push(`state ${load.gallery.state}`, `${load.gallery.media.length} media`);
    } else if (load?.status === 'failed') {
      parts.push('not loaded');
    }
    return parts.join(' · ');
  }

  private tooltip(): vscode.MarkdownString {
    const lines = [`**Gallery ${this.galleryId}**`];
    if (this.known.spot) lines.push(`Spot \`${this.known.spot.sourceId}\` (id ${this.known.spot.spotId})`);
    if (this.known.field) lines.push(`Field \`${this.known.field}\``);
    if (this.known.pending) lines.push('Pending: the import returned it and no upload is recorded yet.');
    return new vscode.MarkdownString(lines.join('\n\n'));
  }
}

/** A gallery an import returned as pending, with no upload recorded yet. */
export class PendingGalleryNode extends GalleryNode {
  static override readonly contextValue: string = CONTEXT_VALUES.galleryPending;

  protected override get contextValue(): string {
    return PendingGalleryNode.contextValue;
  }

  protected override get iconName(): string {
    return 'gallery-pending';
  }
}

export function createGalleryNode(parent: TreeNode | undefined, known: KnownGallery, context: NodeContext): GalleryNode {
  return known.pending ? new PendingGalleryNode(parent, known, context) : new GalleryNode(parent, known, context);
}
