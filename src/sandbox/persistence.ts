// The --data state file: spots, galleries and media metadata as one JSON document. Writes are
// atomic (temp file + rename), so a crash leaves the old or the new state, never half of one,
// and coalesced, so a burst of imports costs a few writes rather than one per import.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import type { StoreSnapshot } from './store';

const idSchema = z.number().int().positive();
const snapshotSchema = z.object({
  format: z.literal(1),
  nextIds: z.object({ spot: idSchema, gallery: idSchema, media: idSchema }),
  spots: z.array(
    z.object({
      id: idSchema,
      sourceId: z.string(),
      attributes: z.record(z.string(), z.unknown()),
      galleries: z.record(z.string(), idSchema),
      apiVersion: z.string(),
    }),
  ),
  galleries: z.array(z.object({ id: idSchema, spotId: idSchema, field: z.string(), type: z.number().int(), state: z.number().int() })),
  media: z.array(
    z.object({
      id: idSchema,
      galleryId: idSchema,
      file: z.string(),
      mimeType: z.string(),
      size: z.number().int().nonnegative(),
      storedName: z.string(),
      orderWeight: z.number(),
    }),
  ),
});

/** Reads the state file; undefined when there is none yet, an Error naming the file when it is unreadable. */
export async function loadState(file: string): Promise<StoreSnapshot | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); move it away to start with empty data.`);
  }
  const result = snapshotSchema.safeParse(value);
  if (!result.success) {
    throw new Error(`${file} is not a sandbox state file (${result.error.issues[0]?.message ?? 'unexpected shape'}).`);
  }
  return result.data;
}

export class StateFile {
  private writing: Promise<void> = Promise.resolve();
  private running = false;
  private dirty = false;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => StoreSnapshot,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Schedules a write of the current state; returns at once. */
  requestSave(): void {
    this.dirty = true;
    if (!this.running) {
      this.running = true;
      this.writing = this.writeWhileDirty();
    }
  }

  /** Resolves once everything requested so far is on disk. */
  async flush(): Promise<void> {
    while (this.running) await this.writing;
  }

  private async writeWhileDirty(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        try {
          await writeAtomically(this.file, JSON.stringify(this.snapshot()));
        } catch (error) {
          this.onError(error);
        }
      }
    } finally {
      // Cleared in the same step as the last dirty check, so a save requested after it starts a new loop.
      this.running = false;
    }
  }
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync(); // the bytes reach the disk before the rename makes them the state
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
