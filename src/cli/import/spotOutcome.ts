// A spot's outcome from the import engine, as the command line reports it (records.ts): the
// status words of docs/cli-json.md, the problems placed on the document (naming the media file
// they are about), the galleries with what was uploaded, resolved and skipped, and what a second
// run will do. The engine's typed outcome decides; this only words it.
import { ruleOf, runStopCause, type SpotFailureKind, type SpotOutcome } from '../../core';
import { isRowOrigin, placeRowProblem, type CellPosition } from '../../core/rows';
import { rowFindings, rowPlace } from '../rows/rowFindings';
import { toFindings } from '../documents/documentRules';
import type { Finding, GalleryRecord, Outcome, SpotRecord } from '../output/records';

/** `nameCell`: how a row's table names its cells when not by line (rowFindings). */
export function toOutcome(spot: SpotOutcome, display: (path: string) => string, nameCell?: (at: CellPosition) => string): Outcome {
  // A row of a table is named by its table, with its row and line.
  const origin = isRowOrigin(spot.origin) ? spot.origin : undefined;
  const file = origin ? display(origin.source) : spot.label;
  const record = spotRecord(spot, !origin);
  const row = origin ? { row: rowPlace(origin, nameCell) } : {};
  const withRecord = { ...(record ? { spot: record } : {}), ...row };
  switch (spot.status) {
    case 'done':
      return { file, status: spot.change === 'unchanged' ? 'alreadyImported' : 'imported', ok: true, findings: findingsOf(spot, display), ...withRecord };
    case 'invalid':
      return {
        file,
        status: 'failed',
        ok: false,
        reason: spot.reason ?? 'The document or its media break a rule.',
        failure: 'document',
        findings: findingsOf(spot, display),
        ...withRecord,
      };
    case 'failed':
      return {
        file,
        status: 'failed',
        ok: false,
        reason: withRemaining(spot),
        failure: failureOf(spot.failure?.kind),
        findings: findingsOf(spot, display),
        ...withRecord,
      };
    case 'cancelled':
      return { file, status: 'interrupted', ok: false, reason: withRemaining(spot), findings: findingsOf(spot, display), ...withRecord };
    case 'checked':
      return {
        file,
        status: 'wouldImport',
        ok: true,
        findings: findingsOf(spot, display),
        spot: { sourceId: spot.sourceId!, pendingGalleries: [] },
        ...row,
      };
    case 'not-started':
      return {
        file,
        status: 'notAttempted',
        ok: false,
        reason: runStopCause(spot.failure?.because ?? 'cancelled'),
        findings: [],
        ...row,
      };
  }
}

/** The kinds of records.ts: the file, the document, or the service (and everything on the way to it). */
function failureOf(kind: SpotFailureKind | undefined): Outcome['failure'] {
  if (kind === 'unreadable') return 'unreadable';
  return kind === 'invalid' || kind === 'repeated-source-id' || kind === 'gallery-taken' ? 'document' : 'service';
}

/** `written`: a document (rows of a table are never written back, so say nothing of it). */
function spotRecord(spot: SpotOutcome, written = true): SpotRecord | undefined {
  if (spot.sourceId === undefined) return undefined;
  const media = spot.galleries.filter((gallery) => gallery.files > 0);
  const pending = spot.galleries.filter((gallery) => gallery.files === 0 && gallery.galleryId !== undefined);
  return {
    sourceId: spot.sourceId,
    ...(spot.spotId !== undefined ? { spotId: spot.spotId } : {}),
    ...(spot.status === 'done' && (spot.change === 'new' || spot.change === 'updated') ? { change: spot.change } : {}),
    ...(spot.state !== undefined ? { state: spot.state } : {}),
    pendingGalleries: pending.map((gallery) => ({ field: gallery.field, galleryId: gallery.galleryId! })),
    ...(media.length > 0 ? { galleries: media.map(galleryRecord) } : {}),
    ...(spot.withMedia && written ? { writeBack: spot.writeBack.status } : {}),
    ...(spot.status !== 'done' && spot.remaining.length > 0 ? { remaining: spot.remaining } : {}),
  };
}

function galleryRecord(gallery: SpotOutcome['galleries'][number]): GalleryRecord {
  return {
    field: gallery.field,
    ...(gallery.galleryId !== undefined ? { galleryId: gallery.galleryId } : {}),
    files: gallery.files,
    uploaded: gallery.uploaded,
    resolved: gallery.resolved,
    skipped: gallery.skipped,
    failed: gallery.failed,
    order: gallery.order,
  };
}

/** The engine's problems carry offsets into the document (lines and columns need its text), or a row's, its cells. */
/** A spot's problems as findings: a row's at its cells, a document's at its lines in the text that was checked. */
export function findingsOf(spot: SpotOutcome, display: (path: string) => string): Finding[] {
  if (spot.problems.length === 0) return [];
  if (isRowOrigin(spot.origin)) {
    const origin = spot.origin;
    return rowFindings(
      spot.problems.map((problem) => ({ ...problem, rule: ruleOf(problem), at: placeRowProblem(origin, problem) })),
      display,
      origin.nameCell,
    );
  }
  // The text the offsets are in, as it was checked: the file may have changed since (the write-back of gallery ids, too).
  return toFindings(spot.checkedText ?? '', spot.problems, display);
}

function withRemaining(spot: SpotOutcome): string {
  const reason = spot.reason ?? 'Not finished.';
  return spot.remaining.length > 0 ? `${reason} A second run will ${spot.remaining.join('; ')}.` : reason;
}
