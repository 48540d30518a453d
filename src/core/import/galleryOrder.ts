// Step 4 for one gallery: its media in the files' name order. Nothing is sent when the gallery
// already reads in that order (the usual case: files are uploaded in name order). When weights
// this workflow set earlier are still in place, only the media that move (or are new) get a
// weight between their neighbours; otherwise every file's media gets one.
import { throwIfAborted } from '../api/errors';
import type { ServiceClient } from '../api/serviceClient';
import { weightsToSend } from '../mediaFiles/mediaOrder';
import type { CheckedMediaFile } from '../media/checkSpotMedia';
import type { SpotJournal } from '../journal/journal';

export interface OrderContext {
  client: Pick<ServiceClient, 'getGallery' | 'setMediaOrder'>;
  journal: SpotJournal;
  field: string;
  /** In name order, every one recorded in the journal. */
  files: CheckedMediaFile[];
  signal?: AbortSignal;
  step(message: string): void;
}

export async function orderGalleryMedia(ctx: OrderContext): Promise<'set' | 'already'> {
  const gallery = ctx.journal.record.galleries[ctx.field];
  const desired = ctx.files.map((file) => gallery.media[file.key].mediaId);
  if (gallery.order && sameList(gallery.order, desired)) return 'already';
  throwIfAborted(ctx.signal);
  const current = await readOrder(ctx, gallery.galleryId, desired);
  if (sameList(current, desired)) {
    gallery.order = desired;
    ctx.journal.touch();
    return 'already';
  }
  let entries = weightsToSend(desired, gallery.weights ?? {});
  await ctx.client.setMediaOrder(gallery.galleryId, entries, { signal: ctx.signal });
  if (entries.length < desired.length && !sameList(await readOrder(ctx, gallery.galleryId, desired), desired)) {
    // The weights recorded earlier are not the gallery's any more (reordered elsewhere): set them all.
    entries = desired.map((id, index) => ({ id, orderWeight: index + 1 }));
    await ctx.client.setMediaOrder(gallery.galleryId, entries, { signal: ctx.signal });
  }
  gallery.weights = { ...gallery.weights, ...Object.fromEntries(entries.map((entry) => [String(entry.id), entry.orderWeight])) };
  gallery.order = desired;
  ctx.journal.touch();
  ctx.step(`gallery ${gallery.galleryId}: media order set to the files' name order (${entries.length} of ${desired.length} weights sent)`);
  return 'set';
}

/** The gallery's order of this spot's media (others' media are left where they are). */
async function readOrder(ctx: OrderContext, galleryId: number, desired: number[]): Promise<number[]> {
  const ours = new Set(desired);
  return (await ctx.client.getGallery(galleryId, { signal: ctx.signal })).media.map((media) => media.id).filter((id) => ours.has(id));
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
