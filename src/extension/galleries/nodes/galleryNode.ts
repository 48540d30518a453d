// A gallery the user knows. Its media load only when it is expanded (one GET), stay cached until
// refreshed, and appear a page at a time. A failure becomes message nodes under it.
//
// The row must read at the default sidebar width: the label is short (the field's label from a
// topic definition, else the field name), the description says what is true now (how many media,
// or that it waits for them), and the ids and states are in the tooltip. "Waiting for media" (the
// pending state) holds only while the import's gallery has neither an upload recorded nor media.
import * as vscode from 'vscode';
import { escapeMarkdown, inlineCode } from '../../../core/text/markdown';
import type { KnownGallery } from '../../platform/domain';
import type { FieldLabels } from '../fieldLabels';
import type { GalleryLoad } from '../galleryCache';
import { mediaAddressOf } from '../media/mediaFileSystem';
import { SET_MEDIA_TEMPLATE_COMMAND } from '../media/mediaTemplate';
import { LoadMoreNode } from './loadMoreNode';
import { MediaNode } from './mediaNode';
import { MessageNode } from './messageNode';
import { CONTEXT_VALUES, type NodeContext, type TreeNode } from './treeNode';
import { COMMAND } from '../../platform/commandIds';

/** The pending state's words, in the row's description and its spoken label. */
function waitingForMedia(): string {
  return vscode.l10n.t('waiting for media');
}

/** A gallery's short name: its field's label, the field name, or "Gallery 12" for one added by id. */
export function galleryLabel(labels: FieldLabels, profileId: string, known: KnownGallery): string {
  return labels.labelOf(profileId, known)?.label ?? known.field ?? vscode.l10n.t('Gallery {0}', known.galleryId);
}

export class GalleryNode implements TreeNode {
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

  /** The short name of the row: the field's label, the field name, or "Gallery 12" for one added by id. */
  get label(): string {
    return galleryLabel(this.context.labels, this.profileId, this.known);
  }

  /** Still waiting for its media: an import's gallery with no upload recorded and none loaded. */
  get waiting(): boolean {
    const load = this.context.cache.peek(this.profileId, this.galleryId);
    return this.known.pending && !(load?.status === 'loaded' && load.gallery.media.length > 0);
  }

  getTreeItem(): vscode.TreeItem {
    const load = this.context.cache.peek(this.profileId, this.galleryId);
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const waiting = this.waiting;
    item.contextValue = waiting ? CONTEXT_VALUES.galleryPending : CONTEXT_VALUES.gallery;
    item.description = this.describe(load, waiting);
    item.accessibilityInformation = { label: this.spoken(load, waiting) };
    item.tooltip = this.tooltip(load, waiting);
    const media = vscode.Uri.joinPath(this.context.extensionUri, 'media');
    const icon = waiting ? 'gallery-pending' : 'gallery';
    item.iconPath = { light: vscode.Uri.joinPath(media, `${icon}-light.svg`), dark: vscode.Uri.joinPath(media, `${icon}-dark.svg`) };
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    const wasLoaded = this.context.cache.peek(this.profileId, this.galleryId) !== undefined;
    const load = await this.context.cache.load(this.profileId, this.galleryId);
    // The row's description (media count) changes once the first load has answered. Only when
    // the answer was kept: a cancelled load is not, and redrawing would start it again. Redrawn
    // after this call has returned: a change fired while VS Code is still taking these children
    // makes it ask again at once, and the two answers clash over the media rows' ids.
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
        new MessageNode(this, `${this.id}/empty`, vscode.l10n.t('No media yet'), {
          icon: 'cloud-upload',
          tooltip: vscode.l10n.t('Drop files from the Explorer here, or click to pick files to upload.'),
          command: { title: vscode.l10n.t('Upload Media'), command: COMMAND.uploadToGalleryNode, arguments: [this] },
        }),
      ];
    }
    const hasTemplate = this.context.hasMediaTemplate();
    const core = hasTemplate ? await this.context.core() : undefined;
    const children: TreeNode[] = gallery.media.slice(0, shown).map(
      (media, index) =>
        new MediaNode(this, media, {
          hasTemplate,
          position: index + 1,
          count: gallery.media.length,
          ...(core ? { address: mediaAddressOf(core, this.profileId, this.galleryId, media) } : {}),
        }),
    );
    if (shown < gallery.media.length) children.push(new LoadMoreNode(this, shown, gallery.media.length));
    return children;
  }

  /**
   * The row as a screen reader says it, a sentence rather than the row's bits and its icon:
   * "Gallery Photos (field fld_7_3), 3 media, gallery 200001, waiting for media".
   */
  private spoken(load: GalleryLoad | undefined, waiting: boolean): string {
    const field = this.known.field;
    const name = !field
      ? this.label
      : field !== this.label
        ? vscode.l10n.t('Gallery {0} (field {1})', this.label, field)
        : vscode.l10n.t('Gallery {0}', this.label);
    const count =
      load?.status === 'loaded'
        ? mediaCount(load.gallery.media.length)
        : load?.status === 'failed'
          ? vscode.l10n.t('not loaded')
          : vscode.l10n.t('not loaded yet');
    return [name, count, field ? galleryNumber(this.galleryId) : undefined, waiting ? waitingForMedia() : undefined].filter(Boolean).join(', ');
  }

  /** "3 media", "waiting for media", "no media", "not loaded"; the gallery id last (cut first when narrow). */
  private describe(load: GalleryLoad | undefined, waiting: boolean): string {
    let status: string | undefined;
    if (load?.status === 'loaded')
      status = load.gallery.media.length > 0 ? mediaCount(load.gallery.media.length) : waiting ? waitingForMedia() : vscode.l10n.t('no media');
    else if (load?.status === 'failed') status = vscode.l10n.t('not loaded');
    else if (waiting) status = waitingForMedia();
    // A gallery added by id has its id in the label already.
    const id = this.known.field ? galleryNumber(this.galleryId) : undefined;
    return [status, id].filter(Boolean).join(' · ');
  }

  private tooltip(load: GalleryLoad | undefined, waiting: boolean): vscode.MarkdownString {
    const found = this.context.labels.labelOf(this.profileId, this.known);
    const label = `**${escapeMarkdown(this.label)}**`;
    const field = this.known.field;
    const spot = this.known.spot;
    const lines = [
      found && field
        ? vscode.l10n.t('{0} (field {1} of {2})', label, inlineCode(field), escapeMarkdown(found.topic))
        : field
          ? vscode.l10n.t('{0} (field)', label)
          : label,
      spot
        ? vscode.l10n.t('Gallery {0} of spot {1} (spot id {2})', this.galleryId, inlineCode(spot.sourceId), spot.spotId)
        : vscode.l10n.t('Gallery {0}, added by id', this.galleryId),
    ];
    if (load?.status === 'loaded') {
      const count = load.gallery.media.length;
      lines.push(
        count > 0
          ? vscode.l10n.t('{0} media · gallery state {1} (as the service reports it)', count, load.gallery.state)
          : vscode.l10n.t('{0} media yet · gallery state {1} (as the service reports it)', count, load.gallery.state),
      );
    } else if (load?.status === 'failed') {
      lines.push(vscode.l10n.t('Not loaded: {0}', escapeMarkdown(load.failure.message)));
    } else {
      lines.push(vscode.l10n.t('Expand to load its media.'));
    }
    if (waiting)
      lines.push(
        vscode.l10n.t('Waiting for media: the import left this gallery for media to come (the spot is in progress, state 2) and no upload is recorded yet.'),
      );
    if (!this.context.hasMediaTemplate()) {
      const link = `[${vscode.l10n.t('Set Media URL Template…')}](command:${SET_MEDIA_TEMPLATE_COMMAND})`;
      lines.push(vscode.l10n.t('Media cannot be shown until the profile has a media URL template: {0}', link));
    }
    const tooltip = new vscode.MarkdownString(lines.join('\n\n'));
    tooltip.isTrusted = { enabledCommands: [SET_MEDIA_TEMPLATE_COMMAND] };
    return tooltip;
  }
}

/** "3 media": how many media a gallery has. */
function mediaCount(count: number): string {
  return vscode.l10n.t('{0} media', count);
}

/** "gallery 200001", after the label of a gallery that has a field. */
function galleryNumber(galleryId: number): string {
  return vscode.l10n.t('gallery {0}', galleryId);
}

export function createGalleryNode(parent: TreeNode | undefined, known: KnownGallery, context: NodeContext): GalleryNode {
  return new GalleryNode(parent, known, context);
}
