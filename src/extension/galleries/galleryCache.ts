// Loaded galleries, per profile and gallery id, kept until the user refreshes. Expanding and
// collapsing a node must not send a request each time, and a failure stays visible (as a message
// node) instead of being retried behind the user's back.
//
// A load can take long (the client retries network failures with back-off), so each one has its
// own AbortSignal: a refresh cancels the running request and starts a new one, collapsing the
// node or closing the view cancels it, and the view shows a progress bar while any load runs.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import type { ExtensionServices } from '../platform/services';
import { describeFailure, type FailureDescription } from './describeFailure';

/** Media nodes shown per page; the rest sit behind a "Load more" node. */
const MEDIA_PAGE_SIZE = 50;

export type GalleryLoad = { status: 'loaded'; gallery: Core.Gallery; shown: number } | { status: 'failed'; failure: FailureDescription };

/** Why a running load was stopped: a refresh starts it again, anything else leaves it stopped. */
type StopReason = 'refresh' | 'cancel';

interface Running {
  promise: Promise<GalleryLoad>;
  controller: AbortController;
}

/** Runs a load under the view's progress indicator (window.withProgress on the view). */
export type ViewProgress = <T>(task: () => Promise<T>) => PromiseLike<T>;

const keyOf = (profileId: string, galleryId: number): string => `${profileId}\u0000${galleryId}`;

/** Told when a gallery's cached state changes (loaded, forgotten, reordered): the grid follows it. */
export type GalleryListener = (profileId: string, galleryId: number) => void;

export class GalleryCache {
  private readonly entries = new Map<string, GalleryLoad>();
  private readonly inFlight = new Map<string, Running>();
  private readonly listeners = new Set<GalleryListener>();

  constructor(
    private readonly services: ExtensionServices,
    private readonly progress: ViewProgress = (task) => task(),
  ) {}

  peek(profileId: string, galleryId: number): GalleryLoad | undefined {
    return this.entries.get(keyOf(profileId, galleryId));
  }

  /**
   * The cached state, or one GET shared by every caller that asks while it runs. When a refresh
   * replaces the request, callers get the new request's answer; when the load is cancelled
   * (collapse, view closed, profile switched), they get a "cancelled" failure that is not cached,
   * so the next expand asks again.
   */
  async load(profileId: string, galleryId: number): Promise<GalleryLoad> {
    const key = keyOf(profileId, galleryId);
    for (;;) {
      const cached = this.entries.get(key);
      if (cached) return cached;
      let running = this.inFlight.get(key);
      if (!running) {
        running = this.start(key, profileId, galleryId);
        this.inFlight.set(key, running);
      }
      const { promise, controller } = running;
      const result = await promise;
      if (controller.signal.aborted && controller.signal.reason === 'refresh') continue;
      return result;
    }
  }

  /** Calls `listener` after each change of a gallery's cached state; returns the way to stop. */
  onDidChange(listener: GalleryListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Shows a loaded gallery's media in another order at once (a reorder on its way to the
   * service, or one put back after it failed); false when the gallery is not loaded or the ids
   * are not its media.
   */
  reorder(profileId: string, galleryId: number, order: readonly number[]): boolean {
    const entry = this.entries.get(keyOf(profileId, galleryId));
    if (entry?.status !== 'loaded') return false;
    const byId = new Map(entry.gallery.media.map((media) => [media.id, media]));
    if (order.length !== byId.size || order.some((id) => !byId.has(id))) return false;
    entry.gallery = { ...entry.gallery, media: order.map((id) => byId.get(id)!) };
    this.notify(profileId, galleryId);
    return true;
  }

  /** Whether a load of the gallery is running now. */
  isLoading(profileId: string, galleryId: number): boolean {
    return this.inFlight.has(keyOf(profileId, galleryId));
  }

  /** Stops a running load (the node was collapsed); nothing is cached, the next expand asks again. */
  cancel(profileId: string, galleryId: number): boolean {
    const key = keyOf(profileId, galleryId);
    const running = this.inFlight.get(key);
    if (!running) return false;
    this.stop(key, running, 'cancel');
    return true;
  }

  /** Forgets one gallery, or every gallery of the profile, so the next expand asks the service. */
  invalidate(profileId: string, galleryId?: number): void {
    const matches = (key: string) => (galleryId === undefined ? key.startsWith(`${profileId}\u0000`) : key === keyOf(profileId, galleryId));
    const forgotten = [...this.entries.keys()].filter(matches);
    for (const key of forgotten) this.entries.delete(key);
    for (const [key, running] of [...this.inFlight]) if (matches(key)) this.stop(key, running, 'refresh');
    for (const key of forgotten) this.notifyKey(key);
  }

  /**
   * Forgets everything. 'refresh' (the view's Refresh): running loads start again; 'cancel'
   * (another profile, the view closing): running loads stop.
   */
  clear(reason: StopReason = 'refresh'): void {
    const forgotten = [...this.entries.keys()];
    this.entries.clear();
    for (const [key, running] of [...this.inFlight]) this.stop(key, running, reason);
    for (const key of forgotten) this.notifyKey(key);
  }

  dispose(): void {
    this.clear('cancel');
    this.listeners.clear();
  }

  /** Shows one more page of an already loaded gallery; false when there is nothing more. */
  showMore(profileId: string, galleryId: number): boolean {
    const entry = this.entries.get(keyOf(profileId, galleryId));
    if (entry?.status !== 'loaded' || entry.shown >= entry.gallery.media.length) return false;
    entry.shown = Math.min(entry.shown + MEDIA_PAGE_SIZE, entry.gallery.media.length);
    return true;
  }

  private notify(profileId: string, galleryId: number): void {
    for (const listener of [...this.listeners]) listener(profileId, galleryId);
  }

  private notifyKey(key: string): void {
    const [profileId, galleryId] = key.split('\u0000');
    this.notify(profileId, Number(galleryId));
  }

  private stop(key: string, running: Running, reason: StopReason): void {
    if (this.inFlight.get(key) === running) this.inFlight.delete(key);
    running.controller.abort(reason);
  }

  private start(key: string, profileId: string, galleryId: number): Running {
    const controller = new AbortController();
    const running: Running = {
      controller,
      promise: Promise.resolve(this.progress(() => this.fetch(profileId, galleryId, controller.signal))).then((result) => {
        // A refresh or cancel during the request dropped it: its answer is stale, keep it out.
        if (this.inFlight.get(key) === running) {
          this.inFlight.delete(key);
          if (!controller.signal.aborted) {
            this.entries.set(key, result);
            this.notify(profileId, galleryId);
          }
        }
        return result;
      }),
    };
    return running;
  }

  private async fetch(profileId: string, galleryId: number, signal: AbortSignal): Promise<GalleryLoad> {
    try {
      // The node's own profile, not whichever is active by the time the request goes out.
      const { client } = await this.services.clients.clientFor(profileId);
      const gallery = await client.getGallery(galleryId, { signal });
      this.services.log.info('galleries', `Loaded gallery ${galleryId}: ${gallery.media.length} media, state ${gallery.state}`);
      // Media arrived (from here, another window or the command line): it waits for none any more.
      if (gallery.media.length > 0) {
        void this.services.galleries
          .markUploaded(profileId, galleryId)
          .catch((error: unknown) => this.services.log.warn('galleries', `could not note that gallery ${galleryId} has media`, error));
      }
      return { status: 'loaded', gallery, shown: Math.min(MEDIA_PAGE_SIZE, gallery.media.length) };
    } catch (error) {
      const failure = describeFailure(signal.aborted ? cancelled(error) : error);
      if (signal.aborted) this.services.log.info('galleries', `Loading gallery ${galleryId} stopped (${String(signal.reason)})`);
      else this.services.log.warn('galleries', `Loading gallery ${galleryId} failed: ${failure.detail}`);
      return { status: 'failed', failure };
    }
  }
}

/** Whatever the aborted request threw, the user stopped it: say so. */
function cancelled(error: unknown): { kind: 'cancelled'; message: string } {
  return { kind: 'cancelled', message: error instanceof Error && error.message ? error.message : vscode.l10n.t('Cancelled.') };
}
