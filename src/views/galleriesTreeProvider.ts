// Data for the Galleries view: roots come from the gallery store of the active profile, grouped
// by spot; gallery nodes load their media lazily through the cache.
import * as vscode from 'vscode';
import type { ExtensionServices, KnownGallery } from '../platform/services';
import { GalleryCache } from './galleryCache';
import { AddedByIdNode } from './nodes/addedByIdNode';
import type { GalleryNode } from './nodes/galleryNode';
import { SpotNode } from './nodes/spotNode';
import type { NodeContext, TreeNode } from './nodes/treeNode';

type GroupNode = SpotNode | AddedByIdNode;

export class GalleriesTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly cache: GalleryCache;
  /** Kept between calls: reveal and per-node refresh need the instances VS Code holds. */
  private roots: GroupNode[] | undefined;

  constructor(private readonly services: ExtensionServices) {
    this.cache = new GalleryCache(services);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
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

  /** Whole-view refresh: forget every loaded gallery too. */
  refreshAll(): void {
    this.cache.clear();
    this.rebuild();
  }

  /** Reloads one gallery's media the next time VS Code asks (now, when it is expanded). */
  refreshGallery(galleryId: number): void {
    const profileId = this.services.profiles.active()?.id;
    if (profileId) this.cache.invalidate(profileId, galleryId);
    this.fireGallery(galleryId);
  }

  /** Shows one more page of media under the gallery. */
  showMore(galleryId: number): void {
    const profileId = this.services.profiles.active()?.id;
    if (profileId && this.cache.showMore(profileId, galleryId)) this.fireGallery(galleryId);
  }

  findGallery(galleryId: number): GalleryNode | undefined {
    for (const group of this.getRoots()) {
      const found = group.galleries.find((gallery) => gallery.galleryId === galleryId);
      if (found) return found;
    }
    return undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private fireGallery(galleryId: number): void {
    const node = this.findGallery(galleryId);
    this.changed.fire(node);
  }

  private buildRoots(): GroupNode[] {
    const profile = this.services.profiles.active();
    if (!profile) return [];
    const context: NodeContext = {
      extensionUri: this.services.context.extensionUri,
      cache: this.cache,
      profileId: profile.id,
      changed: (node) => this.changed.fire(node),
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
