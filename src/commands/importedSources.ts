// Whether an import created a spot or updated one. The service answers both the same way, so the
// extension remembers, per profile, which source_ids it has imported (globalState): a source id
// seen before under this profile was an update. Another machine or the command line may have
// imported it first; then the message says "new" where it was not — the words are a hint, the
// spot id is the fact.
import { serialUpdate } from '../platform/serialUpdates';
import type { ExtensionServices } from '../platform/services';

const KEY = 'spotImport.importedSourceIds';
/** Per profile at most this many ids are kept (the oldest go first): a bound on globalState. */
const MAX_PER_PROFILE = 20_000;

export type ImportKind = 'new' | 'updated';

type Stored = Record<string, string[]>;

function read(services: ExtensionServices): Stored {
  return services.context.globalState.get<Stored>(KEY) ?? {};
}

/** What an import of `sourceId` is about to be, asked before it is recorded. */
export function importKind(services: ExtensionServices, profileId: string, sourceId: string): ImportKind {
  return (read(services)[profileId] ?? []).includes(sourceId) ? 'updated' : 'new';
}

/**
 * Records imported source ids in their turn (serialUpdate), so two runs finishing together do not
 * drop each other's ids; resolves once earlier records are written too. A failed write is logged
 * (the imports happened anyway).
 */
export function rememberImported(services: ExtensionServices, profileId: string, sourceIds: readonly string[]): Promise<void> {
  return serialUpdate(services.context.globalState, KEY, () => write(services, profileId, sourceIds));
}

async function write(services: ExtensionServices, profileId: string, sourceIds: readonly string[]): Promise<void> {
  if (sourceIds.length === 0) return;
  const stored = read(services);
  const known = new Set(stored[profileId] ?? []);
  for (const id of sourceIds) {
    known.delete(id);
    known.add(id);
  }
  const list = [...known];
  try {
    await services.context.globalState.update(KEY, { ...stored, [profileId]: list.slice(Math.max(0, list.length - MAX_PER_PROFILE)) });
  } catch (error) {
    services.log.warn('import', 'could not remember the imported source ids', error);
  }
}

/** "Imported "x" as new spot 12" / "Updated spot 12 ("x")": the start of every result message. */
export function describeImported(kind: ImportKind | undefined, sourceId: string, spotId: number): string {
  if (kind === 'updated') return `Updated spot ${spotId} ("${sourceId}")`;
  if (kind === 'new') return `Imported "${sourceId}" as new spot ${spotId}`;
  return `Imported "${sourceId}" as spot ${spotId}`;
}
