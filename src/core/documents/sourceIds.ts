// One rule for a source_id repeated within a run: two documents with one source_id would update
// one spot, so the first in input order keeps it and every later one is refused, with the same
// words and at the same place (its source_id) whether the run imports, dry-runs or validates.
import { parseTree } from 'jsonc-parser';
import { locateInTree } from './locate';
import type { LocatedProblem } from './parseSpotText';
import { SPOT_RULES } from './problems';
import { l10n } from '../text/l10n';

/** A document's source_id, when it has a usable one (a string that is not blank). Any JSON value. */
export function sourceIdOf(value: unknown): string | undefined {
  const sourceId = (value as { data?: { attributes?: { source_id?: unknown } } } | null)?.data?.attributes?.source_id;
  return typeof sourceId === 'string' && /\S/.test(sourceId) ? sourceId : undefined;
}

/**
 * The source ids of one run, each with the first document that had it. An owner is remembered by
 * its path, a string the caller holds anyway, so 100,000 documents mean one entry per source id.
 */
export class SourceIdOwners {
  private readonly owners = new Map<string, string>();

  /** Claims sourceId for path, in input order: the path of an earlier document that has it, else undefined. */
  claim(sourceId: string, path: string): string | undefined {
    const owner = this.owners.get(sourceId);
    if (owner !== undefined) return owner;
    this.owners.set(sourceId, path);
    return undefined;
  }
}

/** Why a later document with an earlier one's source_id is refused; `earlier` as the user should read it. */
export function repeatedSourceIdReason(sourceId: string, earlier: string): string {
  return l10n.t('source_id "{0}" is also the source_id of {1}: both would update one spot, so this one is not imported.', sourceId, earlier);
}

/** The refusal as a problem on the later document's source_id value (its text is parsed only now: a rare path). */
export function repeatedSourceIdProblem(text: string, sourceId: string, earlier: string): LocatedProblem {
  const root = parseTree(text);
  const span = root ? locateInTree(root, ['data', 'attributes', 'source_id']) : { offset: 0, length: 0 };
  return {
    pointer: '/data/attributes/source_id',
    message: repeatedSourceIdReason(sourceId, earlier),
    ...span,
    severity: 'error',
    rule: SPOT_RULES.repeatedSourceId,
  };
}
