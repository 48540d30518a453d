// Putting a gallery's media in another order (drag and drop in the tree or the grid, Move Up /
// Move Down / Move to Top). The new order shows at once; the weights go to the service
// (POST …/galleries/{id}/media/order, only the changed ones when the others are known); then the
// gallery is read again, so the view shows the order the service now has. A failure puts the old
// order back and is reported in the service's words.
//
// Known weights: the reply's own orderWeight attributes when every media item carries one (the
// interface does not promise them), else the weights this window set before. Should those turn
// out stale (someone reordered elsewhere), the read-back disagrees and every weight is sent once.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import type { ExtensionServices } from '../platform/services';
import type { GalleryCache, ViewProgress } from './galleryCache';

type ReorderPlace = Core.MediaPlace | { step: -1 | 1 };

export interface ReorderRequest {
  profileId: string;
  galleryId: number;
  /** Media ids to move, in any order (they keep their relative order). */
  mediaIds: number[];
  place: ReorderPlace;
}

export interface ReorderHooks {
  /** Draws the gallery's rows again (the tree). */
  redraw(profileId: string, galleryId: number): void;
  /** Forgets the gallery's media and draws its rows again, so they are read anew. */
  reload(profileId: string, galleryId: number): void;
}

const keyOf = (profileId: string, galleryId: number): string => `${profileId}\u0000${galleryId}`;

export class GalleryReorder {
  /** One reorder at a time per gallery: each starts from the order the last one left. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly weights = new Map<string, Map<number, number>>();

  constructor(
    private readonly services: ExtensionServices,
    private readonly cache: GalleryCache,
    private readonly hooks: ReorderHooks,
    private readonly progress: ViewProgress = (task) => task(),
  ) {}

  /** Resolves to true when the order changed, false when there was nothing to move. */
  move(request: ReorderRequest): Promise<boolean> {
    const key = keyOf(request.profileId, request.galleryId);
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.run(request));
    this.queues.set(key, next);
    void next
      .catch(() => undefined)
      .finally(() => {
        if (this.queues.get(key) === next) this.queues.delete(key);
      });
    return next;
  }

  /** The weights this window knows for a gallery (tests check what was remembered). */
  knownWeights(profileId: string, galleryId: number): ReadonlyMap<number, number> | undefined {
    return this.weights.get(keyOf(profileId, galleryId));
  }

  private async run({ profileId, galleryId, mediaIds, place }: ReorderRequest): Promise<boolean> {
    const key = keyOf(profileId, galleryId);
    const core = await this.services.core();
    const load = await this.cache.load(profileId, galleryId);
    if (load.status === 'failed') throw new Error(vscode.l10n.t('The media of gallery {0} could not be read: {1}', galleryId, load.failure.message));
    const before = load.gallery.media.map((media) => media.id);
    const desired =
      typeof place === 'object' && 'step' in place ? core.stepMediaId(before, mediaIds[0], place.step) : core.moveMediaIds(before, mediaIds, place);
    if (sameOrder(before, desired)) return false;
    const known = weightsOf(load.gallery) ?? this.weights.get(key) ?? new Map<number, number>();
    const entries = core.orderWeightsFor(desired, known);

    this.cache.reorder(profileId, galleryId, desired);
    this.hooks.redraw(profileId, galleryId);
    let applied = false;
    try {
      const { client } = await this.services.clients.clientFor(profileId);
      await this.progress(() => client.setMediaOrder(galleryId, entries));
      applied = true;
      let weights = core.applyOrderWeights(known, entries);
      let reread = await this.reread(profileId, galleryId);
      if (reread && !sameOrder(reread, desired) && entries.length < desired.length) {
        // The weights known here were not the service's any more: set every one.
        const all = desired.map((id, index) => ({ id, orderWeight: index + 1 }));
        await this.progress(() => client.setMediaOrder(galleryId, all));
        weights = core.applyOrderWeights(new Map(), all);
        reread = await this.reread(profileId, galleryId);
      }
      this.weights.set(key, weights);
      this.services.log.info(
        'galleries',
        `gallery ${galleryId}: media order set (${entries.length} of ${desired.length} weights sent)${reread && !sameOrder(reread, desired) ? '; the service shows another order' : ''}`,
      );
      return true;
    } catch (error) {
      this.weights.delete(key);
      // Back to the order the service had. Once it took the first weights, only a read shows
      // what it has now; so does a gallery whose entry went away meanwhile.
      if (!applied && this.cache.reorder(profileId, galleryId, before)) this.hooks.redraw(profileId, galleryId);
      else this.hooks.reload(profileId, galleryId);
      throw error;
    }
  }

  /** The gallery as the service has it now (the view redraws with it); undefined when the read failed. */
  private async reread(profileId: string, galleryId: number): Promise<number[] | undefined> {
    this.hooks.reload(profileId, galleryId);
    const load = await this.cache.load(profileId, galleryId);
    return load.status === 'loaded' ? load.gallery.media.map((media) => media.id) : undefined;
  }
}

/** The reply's own weights, when every media item carries a numeric orderWeight. */
function weightsOf(gallery: Core.Gallery): Map<number, number> | undefined {
  const weights = new Map<number, number>();
  for (const media of gallery.media) {
    const weight = media.attributes.orderWeight;
    if (typeof weight !== 'number' || !Number.isFinite(weight)) return undefined;
    weights.set(media.id, weight);
  }
  return weights;
}

function sameOrder(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}
