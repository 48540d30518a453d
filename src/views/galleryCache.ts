// Loaded galleries, per profile and gallery id, kept until the user refreshes. Expanding and
// collapsing a node must not send a request each time, and a failure stays visible (as a message
// node) instead of being retried behind the user's back.
import type * as Core from '../core';
import type { ExtensionServices } from '../platform/services';
import { describeFailure, type FailureDescription } from './describeFailure';

/** Media nodes shown per page; the rest sit behind a "Load more" node. */
export const MEDIA_PAGE_SIZE = 50;

export type GalleryLoad =
  | { status: 'loaded'; gallery: Core.Gallery; shown: number }
  | { status: 'failed'; failure: FailureDescription };

const keyOf = (profileId: string, galleryId: number): string => `${profileId}\u0000${galleryId}`;

export class GalleryCache {
  private readonly entries = new Map<string, GalleryLoad>();
  private readonly inFlight = new Map<string, Promise<GalleryLoad>>();

  constructor(private readonly services: ExtensionServices) {}

  peek(profileId: string, galleryId: number): GalleryLoad | undefined {
    return this.entries.get(keyOf(profileId, galleryId));
  }

  /** The cached state, or one GET shared by every caller that asks while it runs. */
  load(profileId: string, galleryId: number): Promise<GalleryLoad> {
    const key = keyOf(profileId, galleryId);
    const cached = this.entries.get(key);
    if (cached) return Promise.resolve(cached);
    let running = this.inFlight.get(key);
    if (!running) {
      running = this.fetch(galleryId).then((result) => {
        // A refresh during the request dropped this promise: its answer is stale, keep it out.
        if (this.inFlight.get(key) === running) {
          this.inFlight.delete(key);
          this.entries.set(key, result);
        }
        return result;
      });
      this.inFlight.set(key, running);
    }
    return running;
  }

  /** Forgets one gallery, or every gallery of the profile, so the next expand asks the service. */
  invalidate(profileId: string, galleryId?: number): void {
    const prefix = galleryId === undefined ? `${profileId}\u0000` : keyOf(profileId, galleryId);
    for (const map of [this.entries, this.inFlight] as Map<string, unknown>[]) {
      for (const key of [...map.keys()]) {
        if (galleryId === undefined ? key.startsWith(prefix) : key === prefix) map.delete(key);
      }
    }
  }

  clear(): void {
    this.entries.clear();
    this.inFlight.clear();
  }

  /** Shows one more page of an already loaded gallery; false when there is nothing more. */
  showMore(profileId: string, galleryId: number): boolean {
    const entry = this.entries.get(keyOf(profileId, galleryId));
    if (entry?.status !== 'loaded' || entry.shown >= entry.gallery.media.length) return false;
    entry.shown = Math.min(entry.shown + MEDIA_PAGE_SIZE, entry.gallery.media.length);
    return true;
  }

  private async fetch(galleryId: number): Promise<GalleryLoad> {
    let profile: Parameters<ExtensionServices['clients']['reportRejected']>[0] | undefined;
    try {
      const handle = await this.services.clients.client();
      profile = handle.profile;
      const gallery = await handle.client.getGallery(galleryId);
      this.services.log.info('galleries', `Loaded gallery ${galleryId}: ${gallery.media.length} media, state ${gallery.state}`);
      return { status: 'loaded', gallery, shown: Math.min(MEDIA_PAGE_SIZE, gallery.media.length) };
    } catch (error) {
      const failure = describeFailure(error);
      if (failure.isAuthentication && profile) this.services.clients.reportRejected(profile);
      this.services.log.warn('galleries', `Loading gallery ${galleryId} failed: ${failure.detail}`);
      return { status: 'failed', failure };
    }
  }
}
