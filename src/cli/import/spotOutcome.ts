// A spot's outcome from the media workflow, as the command line reports it (records.ts): the
// status words of docs/cli-json.md, the problems placed on the document (naming the media file
// they are about), the galleries with what was uploaded, resolved and skipped, and what a second
// run will do.
import { readFileSync } from 'node:fs';
import type { SpotOutcome } from '../../core';
import { toFindings } from '../documents/checkDocument';
import type { Finding, GalleryRecord, Outcome, SpotRecord } from '../output/records';

export function toOutcome(spot: SpotOutcome, warnings: Finding[], display: (path: string) => string): Outcome {
  const file = spot.label;
  const record = spotRecord(spot);
  switch (spot.status) {
    case 'done':
      return { file, status: sentNothing(spot) ? 'alreadyImported' : 'imported', ok: true, findings: warnings, ...(record ? { spot: record } : {}) };
    case 'invalid': {
      const findings = [...placed(spot, display), ...warnings];
      return { file, status: 'failed', ok: false, reason: spot.reason ?? 'The document or its media break a rule.', failure: 'document', findings, ...(record ? { spot: record } : {}) };
    }
    case 'failed':
      return { file, status: 'failed', ok: false, reason: withRemaining(spot), failure: spot.problems.length > 0 ? 'document' : 'service', findings: [...placed(spot, display), ...warnings], ...(record ? { spot: record } : {}) };
    case 'cancelled':
      return { file, status: 'interrupted', ok: false, reason: withRemaining(spot), findings: warnings, ...(record ? { spot: record } : {}) };
    case 'not-started':
      return { file, status: 'notAttempted', ok: false, reason: notStartedReason(spot), findings: [] };
  }
}

/**
 * "Already imported" promises that nothing was sent: the journal knew this exact text as
 * imported (so the final import was skipped) and no media were uploaded or ordered either. A
 * file added to the media folder since is sent, and then the spot counts as imported.
 */
function sentNothing(spot: SpotOutcome): boolean {
  return spot.imported === 'unchanged' && spot.galleries.every((gallery) => gallery.uploaded === 0 && gallery.order !== 'set');
}

function spotRecord(spot: SpotOutcome): SpotRecord | undefined {
  if (spot.sourceId === undefined) return undefined;
  const media = spot.galleries.filter((gallery) => gallery.files > 0);
  const pending = spot.galleries.filter((gallery) => gallery.files === 0 && gallery.galleryId !== undefined);
  return {
    sourceId: spot.sourceId,
    ...(spot.spotId !== undefined ? { spotId: spot.spotId } : {}),
    ...(spot.state !== undefined ? { state: spot.state } : {}),
    pendingGalleries: pending.map((gallery) => ({ field: gallery.field, galleryId: gallery.galleryId! })),
    ...(media.length > 0 ? { galleries: media.map(galleryRecord) } : {}),
    ...(spot.withMedia ? { writeBack: spot.writeBack.status } : {}),
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

/** The workflow's problems carry offsets into the document: lines and columns need its text. */
function placed(spot: SpotOutcome, display: (path: string) => string): Finding[] {
  if (spot.problems.length === 0) return [];
  let text = '';
  try {
    text = readFileSync(spot.path, 'utf8');
  } catch {
    // Gone since it was checked: the problems are still reported, at the start of the file.
  }
  return toFindings(text, spot.problems, display);
}

function withRemaining(spot: SpotOutcome): string {
  const reason = spot.reason ?? 'Not finished.';
  return spot.remaining.length > 0 ? `${reason} A second run will ${spot.remaining.join('; ')}.` : reason;
}

function notStartedReason(spot: SpotOutcome): string {
  if (/credentials/i.test(spot.reason ?? '')) return 'the run stopped because the credentials were rejected';
  return 'the run was interrupted first';
}
