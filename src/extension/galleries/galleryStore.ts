// The galleries a user knows, per profile. Kept in globalState (not workspace settings) because
// gallery ids belong to an account on a service, not to a folder, and must survive restarts.
// Every change takes its turn (serialUpdate), so changes made at once lose none.
import * as vscode from 'vscode';
import type { GalleryStore, KnownGallery } from '../platform/domain';
import { readStored, serialUpdate, writeStored } from '../platform/serialUpdates';

const STATE_KEY = 'spotImport.galleries.v1';

type Stored = Record<string, KnownGallery[]>;

/** Newer facts win, but an entry added by id never erases the spot an import told us about. */
function merge(old: KnownGallery, update: KnownGallery): KnownGallery {
  return {
    galleryId: old.galleryId,
    // A re-import without a document (a folder run of older entries) keeps the one already known.
    spot:
      update.spot && old.spot?.spotId === update.spot.spotId && old.spot.documentUri && !update.spot.documentUri
        ? { ...update.spot, documentUri: old.spot.documentUri }
        : (update.spot ?? old.spot),
    field: update.field ?? old.field,
    pending: update.pending,
  };
}

function isKnownGallery(value: unknown): value is KnownGallery {
  const entry = value as Partial<KnownGallery> | undefined;
  return !!entry && Number.isInteger(entry.galleryId) && typeof entry.pending === 'boolean';
}

export function createGalleryStore(context: vscode.ExtensionContext): GalleryStore & vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();

  // A value written by an older or broken version must not break the view: drop what does not fit.
  const read = (): Stored => {
    const raw = readStored<unknown>(context.globalState, STATE_KEY);
    const result: Stored = {};
    if (raw && typeof raw === 'object') {
      for (const [profileId, list] of Object.entries(raw as Record<string, unknown>)) {
        if (Array.isArray(list)) result[profileId] = list.filter(isKnownGallery);
      }
    }
    return result;
  };

  /** Changes one profile's list in its turn; `edit` answers undefined when nothing changes. */
  const change = (profileId: string, edit: (list: KnownGallery[]) => KnownGallery[] | undefined): Promise<void> =>
    serialUpdate(context.globalState, STATE_KEY, async () => {
      const all = read();
      const list = edit(all[profileId] ?? []);
      if (!list) return;
      if (list.length > 0) all[profileId] = list;
      else delete all[profileId];
      await writeStored(context.globalState, STATE_KEY, all);
      changed.fire();
    });

  return {
    onDidChange: changed.event,
    list: (profileId) => read()[profileId]?.map((entry) => ({ ...entry })) ?? [],
    add: (profileId, galleries) =>
      change(profileId, (list) => {
        for (const gallery of galleries) {
          const index = list.findIndex((entry) => entry.galleryId === gallery.galleryId);
          if (index >= 0) list[index] = merge(list[index], gallery);
          else list.push({ ...gallery });
        }
        return list;
      }),
    remove: (profileId, galleryId) => change(profileId, (list) => list.filter((entry) => entry.galleryId !== galleryId)),
    markUploaded: (profileId, galleryId) =>
      change(profileId, (list) => {
        const entry = list.find((candidate) => candidate.galleryId === galleryId);
        if (!entry || !entry.pending) return undefined;
        entry.pending = false;
        return list;
      }),
    dispose: () => changed.dispose(),
  };
}
