// Data for the Galleries view: roots come from the gallery store of the active profile, grouped
// by spot; gallery nodes load their media lazily through the cache.
import * as vscode from 'vscode';
import { toAbortSignal } from '../platform/cancellation';
import type { ExtensionServices } from '../platform/services';
import type { KnownGallery } from '../platform/domain';
import { FieldLabels, type TopicCatalogs } from './fieldLabels';
import { GalleryCache } from './galleryCache';
import { GALLERIES_VIEW_ID } from './viewIds';
import type { MediaFiles } from './media/mediaFiles';
import { mediaUrlTemplateFor } from './media/mediaTemplate';
import { AddedByIdNode } from './nodes/addedByIdNode';
import { galleryLabel, type GalleryNode } from './nodes/galleryNode';
import { MediaNode, mediaTooltip } from './nodes/mediaNode';
import { SpotNode } from './nodes/spotNode';
import type { NodeContext, TreeNode } from './nodes/treeNode';

type GroupNode = SpotNode | AddedByIdNode;

export class GalleriesTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly cache: GalleryCache;
  /** Kept between calls: reveal and per-node refresh need the instances VS Code holds. */
  private roots: GroupNode[] | undefined;
  /** The profile the roots were built for. */
  private rootsProfileId: string | undefined;

  private readonly labels: FieldLabels;

  constructor(
    private readonly services: ExtensionServices,
    private readonly mediaFiles: MediaFiles,
    topics?: TopicCatalogs,
  ) {
    // Loads show as the view's progress bar; cancelling is the cache's job (refresh, collapse).
    this.cache = new GalleryCache(services, (task) => vscode.window.withProgress({ location: { viewId: GALLERIES_VIEW_ID } }, task));
    this.labels = new FieldLabels(topics, services.profiles, services.log, () => this.changed.fire(undefined));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  /** On hover: an image's tooltip gets its picture (fetched only now, and only small ones). */
  async resolveTreeItem(item: vscode.TreeItem, node: TreeNode, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    if (!(node instanceof MediaNode) || item.tooltip !== undefined) return item;
    const abort = toAbortSignal(token);
    try {
      const picture = await this.mediaFiles.thumbnail({ profileId: node.profileId, galleryId: node.galleryId, media: node.media }, abort.signal);
      item.tooltip = mediaTooltip(node.media, node.row, picture);
    } finally {
      abort.dispose();
    }
    return item;
  }

  getChildren(node?: TreeNode): TreeNode[] | Promise<TreeNode[]> {
    return node ? node.getChildren() : this.getRoots();
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  getRoots(): GroupNode[] {
    this.roots ??= this.buildRoots();
    return this.roots;
  }

  /** The store or the active profile changed: regroup, but keep loaded media. */
  rebuild(): void {
    this.roots = undefined;
    this.changed.fire(undefined);
  }

  /** Whole-view refresh: forget every loaded gallery too (loads still running start again). */
  refreshAll(): void {
    this.cache.clear('refresh');
    this.rebuild();
  }

  /** Another profile, or new credentials: what was loaded or is loading no longer applies. */
  profileChanged(): void {
    this.cache.clear('cancel');
    this.rebuild();
  }

  /** Reloads one gallery's media the next time VS Code asks (now, when it is expanded). */
  refreshGallery(galleryId: number, profileId = this.services.profiles.active()?.id): void {
    if (!profileId) return;
    this.cache.invalidate(profileId, galleryId);
    this.fireGallery(galleryId, profileId);
  }

  /** Draws the gallery's rows again from the cache as it is (a reorder shown before the service answered). */
  redrawGallery(galleryId: number, profileId = this.services.profiles.active()?.id): void {
    if (profileId) this.fireGallery(galleryId, profileId);
  }

  /** What the gallery is called in the view (its row's label), for grid titles. */
  galleryLabel(galleryId: number, profileId: string): string {
    const known = this.services.galleries.list(profileId).find((gallery) => gallery.galleryId === galleryId);
    return known ? galleryLabel(this.labels, profileId, known) : vscode.l10n.t('Gallery {0}', galleryId);
  }

  /** Shows one more page of media under the gallery. */
  showMore(galleryId: number, profileId = this.services.profiles.active()?.id): void {
    if (profileId && this.cache.showMore(profileId, galleryId)) this.fireGallery(galleryId, profileId);
  }

  /** The node was collapsed while its media were loading: stop the request. */
  cancelLoad(node: TreeNode): boolean {
    const gallery = node as Partial<GalleryNode>;
    if (typeof gallery.galleryId !== 'number' || typeof gallery.profileId !== 'string') return false;
    return this.cache.cancel(gallery.profileId, gallery.galleryId);
  }

  /** The gallery's node in the view; undefined when it is not shown (or `profileId` is not the active profile). */
  findGallery(galleryId: number, profileId?: string): GalleryNode | undefined {
    const roots = this.getRoots();
    if (profileId !== undefined && profileId !== this.rootsProfileId) return undefined;
    for (const group of roots) {
      const found = group.galleries.find((gallery) => gallery.galleryId === galleryId);
      if (found) return found;
    }
    return undefined;
  }

  dispose(): void {
    this.cache.dispose();
    this.labels.dispose();
    this.changed.dispose();
  }

  private fireGallery(galleryId: number, profileId: string): void {
    // Not shown (another profile's gallery): nothing to redraw; its cache entry is gone already.
    if (profileId !== this.services.profiles.active()?.id) return;
    this.changed.fire(this.findGallery(galleryId));
  }

  private buildRoots(): GroupNode[] {
    const profile = this.services.profiles.active();
    this.rootsProfileId = profile?.id;
    if (!profile) return [];
    const profileId = profile.id;
    const context: NodeContext = {
      extensionUri: this.services.context.extensionUri,
      cache: this.cache,
      profileId,
      labels: this.labels,
      // Read when rows are drawn. The sandbox always serves its files (its template is known
      // once it has started, which reading a gallery does).
      hasMediaTemplate: () => {
        const current = this.services.profiles.get(profileId);
        return !!current && (current.kind === 'sandbox' || mediaUrlTemplateFor(current) !== undefined);
      },
      changed: (node) => this.changed.fire(node),
      core: () => this.services.core(),
    };
    const bySpot = new Map<number, { spot: NonNullable<KnownGallery['spot']>; galleries: KnownGallery[] }>();
    const withoutSpot: KnownGallery[] = [];
    for (const known of this.services.galleries.list(profile.id)) {
      if (!known.spot) {
        withoutSpot.push(known);
        continue;
      }
      const group = bySpot.get(known.spot.spotId) ?? { spot: known.spot, galleries: [] };
      group.galleries.push(known);
      bySpot.set(known.spot.spotId, group);
    }
    const roots: GroupNode[] = [...bySpot.values()]
      .sort((a, b) => a.spot.sourceId.localeCompare(b.spot.sourceId) || a.spot.spotId - b.spot.spotId)
      .map((group) => new SpotNode(group.spot, group.galleries, context));
    if (withoutSpot.length > 0) roots.push(new AddedByIdNode(withoutSpot, context));
    return roots;
  }
}
