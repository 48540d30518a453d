// The sandbox's data: spots (upserted by user and source_id), their galleries and the galleries'
// media. Plain maps in memory. Every change answers the records it touched (a StoreChange), which
// is what the journal writes with --data; a snapshot of all of it is what state.json holds.
import { pendingGalleryFields, type GalleryFieldTypes } from '../core/api/spotSchema';

export interface SpotRecord {
  id: number;
  /** The user account owning the spot (and its galleries and their media). */
  user: string;
  sourceId: string;
  /** Attributes as last imported, with each pending (null) gallery field replaced by its gallery id. */
  attributes: Record<string, unknown>;
  /** Gallery id per gallery field; kept across imports so a re-import reuses, never piles up. */
  galleries: Record<string, number>;
  /** API version of the path the spot was last imported through, e.g. 'v2.4'. */
  apiVersion: string;
}

export interface GalleryRecord {
  id: number;
  spotId: number;
  field: string;
  type: number;
  state: number;
}

export interface MediaRecord {
  id: number;
  galleryId: number;
  file: string;
  mimeType: string;
  size: number;
  /** File name under the media directory. */
  storedName: string;
  /** Position in the gallery; media order requests change it. New media go last. */
  orderWeight: number;
}

export interface NextIds {
  spot: number;
  gallery: number;
  media: number;
}

export interface StoreSnapshot {
  nextIds: NextIds;
  spots: SpotRecord[];
  galleries: GalleryRecord[];
  media: MediaRecord[];
}

/**
 * What one request changed: every record it created or modified, as it is now, and the id
 * counters after it. Applying changes in order rebuilds the state; applying one twice is harmless.
 */
export interface StoreChange {
  ids: NextIds;
  spots?: SpotRecord[];
  galleries?: GalleryRecord[];
  media?: MediaRecord[];
}

export interface UpsertOutcome {
  spot: SpotRecord;
  created: boolean;
  /** Gallery fields sent as null in this import, with the gallery each one got (new or reused). */
  pending: Array<{ field: string; galleryId: number }>;
  change: StoreChange;
}

// Separate id ranges make a spot id mistaken for a gallery id (or a media id) fail visibly.
const FIRST_IDS: NextIds = { spot: 100_001, gallery: 200_001, media: 300_001 };
// The interface leaves gallery kinds and states unshown; the sandbox reports one of each.
const GALLERY_TYPE = 1;
const GALLERY_STATE = 1;

export class SandboxStore {
  private readonly spots = new Map<number, SpotRecord>();
  private readonly spotIdBySource = new Map<string, number>();
  private readonly galleries = new Map<number, GalleryRecord>();
  private readonly media = new Map<number, MediaRecord>();
  private readonly mediaByGallery = new Map<number, Set<number>>();
  private nextIds: NextIds = { ...FIRST_IDS };

  constructor(snapshot?: StoreSnapshot) {
    if (snapshot) this.apply({ ids: snapshot.nextIds, spots: snapshot.spots, galleries: snapshot.galleries, media: snapshot.media });
  }

  get spotCount(): number {
    return this.spots.size;
  }

  /** The spot with this id if it belongs to the user (another user's spot is as good as none). */
  spotOf(user: string, id: number): SpotRecord | undefined {
    const spot = this.spots.get(id);
    return spot?.user === user ? spot : undefined;
  }

  spotBySourceId(user: string, sourceId: string): SpotRecord | undefined {
    const id = this.spotIdBySource.get(sourceKey(user, sourceId));
    return id === undefined ? undefined : this.spots.get(id);
  }

  /** Creates or updates the user's spot named by source_id; pending gallery fields get their gallery. */
  upsertSpot(user: string, attributes: Record<string, unknown>, apiVersion: string, definition?: GalleryFieldTypes): UpsertOutcome {
    const sourceId = String(attributes.source_id);
    const existing = this.spotBySourceId(user, sourceId);
    const spot: SpotRecord = existing ?? { id: this.nextIds.spot++, user, sourceId, attributes: {}, galleries: {}, apiVersion };
    const created: GalleryRecord[] = [];
    const pending = pendingGalleryFields(attributes, definition).map((field) => ({ field, galleryId: this.galleryFor(spot, field, created) }));
    const stored = { ...attributes };
    for (const { field, galleryId } of pending) stored[field] = galleryId;
    spot.attributes = stored;
    spot.apiVersion = apiVersion;
    this.spots.set(spot.id, spot);
    this.spotIdBySource.set(sourceKey(user, sourceId), spot.id);
    return { spot, created: !existing, pending, change: { ids: { ...this.nextIds }, spots: [spot], galleries: created } };
  }

  gallery(id: number): GalleryRecord | undefined {
    return this.galleries.get(id);
  }

  /** The gallery with this id if its spot belongs to the user. */
  galleryOf(user: string, id: number): GalleryRecord | undefined {
    const gallery = this.galleries.get(id);
    return gallery && this.spots.get(gallery.spotId)?.user === user ? gallery : undefined;
  }

  /** The user owning a gallery (through its spot). */
  ownerOfGallery(id: number): string | undefined {
    const gallery = this.galleries.get(id);
    return gallery && this.spots.get(gallery.spotId)?.user;
  }

  /** The gallery's media in display order (order weight, then age). */
  mediaOf(galleryId: number): MediaRecord[] {
    return [...(this.mediaByGallery.get(galleryId) ?? [])].map((id) => this.media.get(id)!).sort((a, b) => a.orderWeight - b.orderWeight || a.id - b.id);
  }

  mediaById(id: number): MediaRecord | undefined {
    return this.media.get(id);
  }

  /** Hands out the next media id, so the file can be named after it before it is recorded. */
  reserveMediaId(): number {
    return this.nextIds.media++;
  }

  addMedia(record: Omit<MediaRecord, 'orderWeight'>): { item: MediaRecord; change: StoreChange } {
    const last = this.mediaOf(record.galleryId).at(-1);
    const item: MediaRecord = { ...record, orderWeight: last ? last.orderWeight + 1 : 0 };
    this.putMedia(item);
    return { item, change: { ids: { ...this.nextIds }, media: [item] } };
  }

  setOrderWeights(weights: Map<number, number>): StoreChange {
    const changed: MediaRecord[] = [];
    for (const [id, weight] of weights) {
      const item = this.media.get(id);
      if (!item) continue;
      item.orderWeight = weight;
      changed.push(item);
    }
    return { ids: { ...this.nextIds }, media: changed };
  }

  /** Every stored file name under the media directory. */
  storedNames(): Set<string> {
    return new Set([...this.media.values()].map((item) => item.storedName));
  }

  snapshot(): StoreSnapshot {
    return {
      nextIds: { ...this.nextIds },
      spots: [...this.spots.values()],
      galleries: [...this.galleries.values()],
      media: [...this.media.values()],
    };
  }

  /** Replays a change (from the journal): records are put as given, id counters never go back. */
  apply(change: StoreChange): void {
    for (const spot of change.spots ?? []) {
      this.spots.set(spot.id, spot);
      this.spotIdBySource.set(sourceKey(spot.user, spot.sourceId), spot.id);
    }
    for (const gallery of change.galleries ?? []) this.galleries.set(gallery.id, gallery);
    for (const item of change.media ?? []) this.putMedia(item);
    for (const key of ['spot', 'gallery', 'media'] as const) this.nextIds[key] = Math.max(this.nextIds[key], change.ids[key]);
  }

  private putMedia(item: MediaRecord): void {
    const previous = this.media.get(item.id);
    if (previous) this.mediaByGallery.get(previous.galleryId)?.delete(item.id);
    this.media.set(item.id, item);
    let ids = this.mediaByGallery.get(item.galleryId);
    if (!ids) this.mediaByGallery.set(item.galleryId, (ids = new Set()));
    ids.add(item.id);
  }

  private galleryFor(spot: SpotRecord, field: string, created: GalleryRecord[]): number {
    const known = spot.galleries[field];
    if (known !== undefined && this.galleries.has(known)) return known;
    const gallery: GalleryRecord = { id: this.nextIds.gallery++, spotId: spot.id, field, type: GALLERY_TYPE, state: GALLERY_STATE };
    this.galleries.set(gallery.id, gallery);
    created.push(gallery);
    spot.galleries[field] = gallery.id;
    return gallery.id;
  }
}

/** One map key per (user, source_id) pair, unambiguous whatever characters either holds. */
function sourceKey(user: string, sourceId: string): string {
  return JSON.stringify([user, sourceId]);
}
