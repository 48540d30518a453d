// The sandbox's data: spots (upserted by source_id), their galleries and the galleries' media.
// Plain maps in memory; a snapshot of them is what the state file holds with --data.
import { pendingGalleryFields } from '../core/api/spotSchema';

export interface SpotRecord {
  id: number;
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

export interface StoreSnapshot {
  format: 1;
  nextIds: { spot: number; gallery: number; media: number };
  spots: SpotRecord[];
  galleries: GalleryRecord[];
  media: MediaRecord[];
}

export interface UpsertOutcome {
  spot: SpotRecord;
  created: boolean;
  /** Gallery fields sent as null in this import, with the gallery each one got (new or reused). */
  pending: Array<{ field: string; galleryId: number }>;
}

// Separate id ranges make a spot id mistaken for a gallery id (or a media id) fail visibly.
const FIRST_IDS = { spot: 100_001, gallery: 200_001, media: 300_001 };
// The interface leaves gallery kinds and states unshown; the sandbox reports one of each.
export const GALLERY_TYPE = 1;
export const GALLERY_STATE = 1;

export class SandboxStore {
  private readonly spots = new Map<number, SpotRecord>();
  private readonly spotIdBySource = new Map<string, number>();
  private readonly galleries = new Map<number, GalleryRecord>();
  private readonly media = new Map<number, MediaRecord>();
  private nextIds = { ...FIRST_IDS };

  constructor(snapshot?: StoreSnapshot) {
    if (!snapshot) return;
    this.nextIds = { ...snapshot.nextIds };
    for (const spot of snapshot.spots) {
      this.spots.set(spot.id, spot);
      this.spotIdBySource.set(spot.sourceId, spot.id);
    }
    for (const gallery of snapshot.galleries) this.galleries.set(gallery.id, gallery);
    for (const item of snapshot.media) this.media.set(item.id, item);
  }

  get spotCount(): number {
    return this.spots.size;
  }

  spotById(id: number): SpotRecord | undefined {
    return this.spots.get(id);
  }

  spotBySourceId(sourceId: string): SpotRecord | undefined {
    const id = this.spotIdBySource.get(sourceId);
    return id === undefined ? undefined : this.spots.get(id);
  }

  /** Creates or updates the spot named by source_id; pending gallery fields get their gallery. */
  upsertSpot(attributes: Record<string, unknown>, apiVersion: string): UpsertOutcome {
    const sourceId = String(attributes.source_id);
    const existing = this.spotBySourceId(sourceId);
    const spot: SpotRecord = existing ?? { id: this.nextIds.spot++, sourceId, attributes: {}, galleries: {}, apiVersion };
    const pending = pendingGalleryFields(attributes).map((field) => ({ field, galleryId: this.galleryFor(spot, field) }));
    const stored = { ...attributes };
    for (const { field, galleryId } of pending) stored[field] = galleryId;
    spot.attributes = stored;
    spot.apiVersion = apiVersion;
    this.spots.set(spot.id, spot);
    this.spotIdBySource.set(sourceId, spot.id);
    return { spot, created: !existing, pending };
  }

  gallery(id: number): GalleryRecord | undefined {
    return this.galleries.get(id);
  }

  /** The gallery's media in display order (order weight, then age). */
  mediaOf(galleryId: number): MediaRecord[] {
    return [...this.media.values()]
      .filter((item) => item.galleryId === galleryId)
      .sort((a, b) => a.orderWeight - b.orderWeight || a.id - b.id);
  }

  mediaById(id: number): MediaRecord | undefined {
    return this.media.get(id);
  }

  /** Hands out the next media id, so the file can be named after it before it is recorded. */
  reserveMediaId(): number {
    return this.nextIds.media++;
  }

  addMedia(record: Omit<MediaRecord, 'orderWeight'>): MediaRecord {
    const last = this.mediaOf(record.galleryId).at(-1);
    const item: MediaRecord = { ...record, orderWeight: last ? last.orderWeight + 1 : 0 };
    this.media.set(item.id, item);
    return item;
  }

  setOrderWeights(weights: Map<number, number>): void {
    for (const [id, weight] of weights) {
      const item = this.media.get(id);
      if (item) item.orderWeight = weight;
    }
  }

  snapshot(): StoreSnapshot {
    return {
      format: 1,
      nextIds: { ...this.nextIds },
      spots: [...this.spots.values()],
      galleries: [...this.galleries.values()],
      media: [...this.media.values()],
    };
  }

  private galleryFor(spot: SpotRecord, field: string): number {
    const known = spot.galleries[field];
    if (known !== undefined && this.galleries.has(known)) return known;
    const gallery: GalleryRecord = { id: this.nextIds.gallery++, spotId: spot.id, field, type: GALLERY_TYPE, state: GALLERY_STATE };
    this.galleries.set(gallery.id, gallery);
    spot.galleries[field] = gallery.id;
    return gallery.id;
  }
}
