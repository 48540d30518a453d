// The --data directory on disk: state.json (a snapshot: spots, galleries, media metadata, id
// counters) and journal-<generation>.log, the changes made since that snapshot, one JSON line
// each. This file reads them back (migrating older formats) and names them; journal.ts writes
// them, with the core's atomic write (src/core/files/atomicFile.ts).
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import * as z from '../core/api/zod';
import { isAtomicWriteLeftover } from '../core/files/atomicFile';
import type { StoreChange, StoreSnapshot } from './store';
import { DEFAULT_USER } from './types';

export const STATE_FILE = 'state.json';
const JOURNAL_PATTERN = /^journal-(\d+)\.log$/;

export function journalName(generation: number): string {
  return `journal-${generation}.log`;
}

const idSchema = z.number().check(z.int(), z.gt(0));
const nextIdsSchema = z.object({ spot: idSchema, gallery: idSchema, media: idSchema });
const spotSchema = z.object({
  id: idSchema,
  user: z.string().check(z.minLength(1)),
  sourceId: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  galleries: z.record(z.string(), idSchema),
  apiVersion: z.string(),
});
const gallerySchema = z.object({ id: idSchema, spotId: idSchema, field: z.string(), type: z.number().check(z.int()), state: z.number().check(z.int()) });
const mediaSchema = z.object({
  id: idSchema,
  galleryId: idSchema,
  file: z.string(),
  mimeType: z.string(),
  size: z.number().check(z.int(), z.gte(0)),
  storedName: z.string(),
  orderWeight: z.number(),
});

// Format 2 added users (spot.user) and the journal generation.
const snapshotSchema = z.object({
  format: z.literal(2),
  generation: z.number().check(z.int(), z.gte(0)),
  nextIds: nextIdsSchema,
  spots: z.array(spotSchema),
  galleries: z.array(gallerySchema),
  media: z.array(mediaSchema),
});
// Format 1 (before users): everything belonged to the one user there was, now DEFAULT_USER.
const formatOneSchema = z.extend(snapshotSchema, {
  format: z.literal(1),
  generation: z.optional(z.undefined()),
  spots: z.array(z.extend(spotSchema, { user: z.optional(z.undefined()) })),
});
const changeSchema = z.object({
  ids: nextIdsSchema,
  spots: z.optional(z.array(spotSchema)),
  galleries: z.optional(z.array(gallerySchema)),
  media: z.optional(z.array(mediaSchema)),
});

export interface LoadedState {
  snapshot?: StoreSnapshot;
  /** Generation of the snapshot; its journal is journal-<generation>.log. */
  generation: number;
  /** The journal's changes, to be applied in order on top of the snapshot. */
  changes: StoreChange[];
}

/** Serialises the snapshot as state.json holds it. */
export function snapshotText(snapshot: StoreSnapshot, generation: number): string {
  return JSON.stringify({ format: 2, generation, ...snapshot });
}

/**
 * Reads state.json and its journal. No state.json: empty. An unreadable state file is an Error
 * naming it. A journal's last line may be torn by a crash mid-write: that change was never
 * acknowledged, so replay stops at the first line that is not a whole, valid change.
 */
export async function loadState(dataDir: string): Promise<LoadedState> {
  const file = join(dataDir, STATE_FILE);
  const text = await readIfPresent(file);
  let snapshot: StoreSnapshot | undefined;
  let generation = 0;
  if (text !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file} is not valid JSON (${(error as Error).message}); move it away to start with empty data.`);
    }
    const current = snapshotSchema.safeParse(value);
    const old = current.success ? undefined : formatOneSchema.safeParse(value);
    if (current.success) {
      const { nextIds, spots, galleries, media } = current.data;
      snapshot = { nextIds, spots, galleries, media };
      generation = current.data.generation;
    } else if (old?.success) {
      const { nextIds, galleries, media } = old.data;
      snapshot = { nextIds, galleries, media, spots: old.data.spots.map((spot) => ({ ...spot, user: DEFAULT_USER })) };
    } else {
      throw new Error(`${file} is not a sandbox state file (${current.error.issues[0]?.message ?? 'unexpected shape'}).`);
    }
  }
  const journal = (await readIfPresent(join(dataDir, journalName(generation)))) ?? '';
  return { snapshot, generation, changes: parseJournal(journal) };
}

function parseJournal(text: string): StoreChange[] {
  const changes: StoreChange[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end >= 0; start = end + 1, end = text.indexOf('\n', start)) {
    let value: unknown;
    try {
      value = JSON.parse(text.slice(start, end));
    } catch {
      break;
    }
    const change = changeSchema.safeParse(value);
    if (!change.success) break;
    changes.push(change.data);
  }
  return changes;
}

/** Leftovers of an earlier run in the data directory: journals of other generations, temporary files. */
export async function staleFiles(dataDir: string, generation: number): Promise<string[]> {
  return (await fs.readdir(dataDir)).filter((name) => {
    const journal = JOURNAL_PATTERN.exec(name);
    if (journal) return Number(journal[1]) !== generation;
    // Earlier versions named their temporary state files state.json.<pid>.<hex>.tmp.
    return isAtomicWriteLeftover(name, STATE_FILE) || (name.startsWith(`${STATE_FILE}.`) && name.endsWith('.tmp'));
  });
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
