// One spot, start to finish: check, import with state 2 while a gallery is pending, upload what
// each gallery lacks, order, import with the final state and every gallery id, write back. Each
// step is recorded in the spot's journal as it completes, so running again finishes the rest.
import { AuthenticationError, CancelledError, ServiceError, isCancellation, throwIfAborted } from '../api/errors';
import type { RetryPolicy } from '../api/retryPolicy';
import { pendingGalleryFields } from '../api/spotSchema';
import { parseSpotText, type ParsedSpotText } from '../documents/parseSpotText';
import { describeProblems } from '../documents/problemSummary';
import { readSpotDocumentStamped, type DocumentStamp } from '../documents/readDocument';
import { spotStateEditor, type SpotTextEdit } from '../documents/setSpotState';
import { repeatedSourceIdProblem, sourceIdOf } from '../documents/sourceIds';
import { isGalleryId } from '../api/spotSchema';
import type { CheckedMediaFile, GalleryPlan, SpotMediaCheck, SpotProblem } from '../media/checkSpotMedia';
import { checkSpotForImport, withTopicRules } from './checkForImport';
import { withCompletedGalleries } from './completedGalleries';
import { hashText } from '../media/contentKey';
import type { HeldContent } from '../media/heldContent';
import { orderGalleryMedia } from './galleryOrder';
import { uploadGalleryMedia } from './galleryUploads';
import { leftOverMediaProblems } from './leftOverMedia';
import { emptiedGalleryProblems } from './emptiedGalleries';
import { sendSpot } from './sendSpot';
import { JournalError, type ImportJournal, type SpotJournal } from '../journal/journal';
import { journalTime, type SpotJournalRecord } from '../journal/journalRecord';
import { noMediaLayout, type MediaLayout } from '../media/mediaLayout';
import type { EngineOptions, RunStopKind, SpotFailureKind, SpotInput, SpotOutcome, StepName, WriteBackOutcome } from './types';
import { writeSpotFileInPlace } from './writeBack';
import { runStopCause } from './runStopWords';
import { l10n } from '../text/l10n';
import { withMembers } from '../objects/withMembers';

export interface SpotRunContext {
  options: EngineOptions;
  retry: RetryPolicy;
  /** Undefined: a check that sends nothing (checkSpots): each spot is settled once checked. */
  journal: ImportJournal | undefined;
  /** The run's budget for checked media kept in memory until they are sent. */
  held: HeldContent;
  /**
   * Claims a gallery for the document at `path`; the path of an earlier document of the run that
   * has it. A spot whose record names the gallery (`owned`) always gets it.
   */
  claimGallery(galleryId: number, path: string, owned: boolean): string | undefined;
  step(label: string, sourceId: string | undefined, step: StepName, message: string): void;
  bytes(label: string, file: string, sentBytes: number, totalBytes: number): void;
}

/** A spot that passed its checks, with its journal open (and locked): ready for the requests. */
export interface PreparedSpot {
  outcome: SpotOutcome;
  text: string;
  /** The file as it was when `text` was read from it, when the engine read it. */
  stamp?: DocumentStamp;
  check: SpotMediaCheck;
  journal: SpotJournal;
  step(name: StepName, message: string): void;
  /** Releases the spot's journal and the media content it holds; once, when it is finished or abandoned. */
  release(): void;
  /** What the document should say, once the final import has been sent (or found sent). */
  final?: { text: string; edits: SpotTextEdit[] };
}

/** One input's turn at claiming its source id in the run (in input order). */
export interface SourceIdTurn {
  /**
   * The path of an earlier input that has the source id already (undefined: none), at once when
   * the input's turn has come, else a promise of it. Called exactly once per prepared input.
   */
  claim(sourceId: string | undefined): string | undefined | Promise<string | undefined>;
}

/**
 * Phase 1, local only: read the document, check it and its media, open the journal. The run does
 * this ahead of the requests, so it overlaps with other spots' network time.
 */
export async function prepareSpot(input: SpotInput, ctx: SpotRunContext, turn: SourceIdTurn): Promise<PreparedSpot | SpotOutcome> {
  const outcome = blankOutcome(input);
  const { label } = outcome;
  const { options } = ctx;
  const step = (name: StepName, message: string) => ctx.step(label, outcome.sourceId, name, message);
  let text: string;
  let stamp: DocumentStamp | undefined;
  try {
    if (input.check || input.text !== undefined || input.read) text = input.check?.text ?? input.text ?? (await input.read!());
    else ({ text, stamp } = await readSpotDocumentStamped(input.path));
  } catch (error) {
    await turn.claim(undefined);
    return fail(outcome, 'unreadable', l10n.t('Could not read the file: {0}', (error as Error).message));
  }
  // The caller's parse or check must have been made with the same topics (options.topics).
  const parsed = input.check?.parsed ?? (input.text !== undefined && input.parsed ? input.parsed : parseSpotText(text, { topics: options.topics }));
  const layout = options.media === false || input.media === false ? noMediaLayout(input.path) : input.media;
  const sourceId = sourceIdOf(parsed.value);
  outcome.sourceId = sourceId;
  const other = await turn.claim(sourceId);
  if (!sourceId) {
    const check = input.check
      ? withTopicRules(input.check, options, input.problems)
      : await checkSpotForImport(input.path, text, withMembers(options, { layout, parsed }), input.problems);
    return invalid(outcome, check, step);
  }
  if (other !== undefined) {
    const problem = repeatedSourceIdProblem(parsed.text, sourceId, options.describePath?.(other) ?? other);
    setProblems(outcome, [problem], parsed.text);
    step('check', `not sent: ${problem.message}`);
    return fail(outcome, 'repeated-source-id', problem.message, 'invalid');
  }
  if (!ctx.journal) return checkedOnly(input, outcome, text, parsed, layout, options, step);

  let journal: SpotJournal;
  try {
    journal = await ctx.journal.open(sourceId, input.path);
  } catch (error) {
    const failure = error instanceof ServiceError ? error : new ServiceError('configuration', (error as Error).message);
    outcome.error = failure;
    step('journal', failure.message);
    return fail(outcome, 'journal', failure.message);
  }
  outcome.journalFile = journal.file;
  const record = journal.record;
  outcome.change = record.spotId === undefined ? 'new' : 'updated';
  try {
    // The check runs with the journal at hand: its hash cache, and the gallery fields it knows
    // (a caller's own check is taken as it is: parsed and hashed once per run).
    const check = input.check
      ? withTopicRules(input.check, options, input.problems)
      : await checkSpotForImport(
          input.path,
          text,
          withMembers(options, {
            layout,
            parsed,
            holdContent: ctx.held,
            hashWhenSent: true,
            knownGalleryFields: Object.keys(record.galleries),
            knownHash: (path, size, mtimeMs) => {
              const known = record.files?.[path];
              return known && known.size === size && known.mtimeMs === mtimeMs ? known.sha256 : undefined;
            },
          }),
          input.problems,
        );
    setProblems(outcome, check.problems, parsed.text);
    const release = () => {
      ctx.held.release(heldFiles(check));
      journal.release();
    };
    if (!check.ok) {
      release();
      return invalid(outcome, check, step);
    }
    const taken = galleryOfAnotherSpot(check, journal, input.path, ctx);
    if (taken) {
      release();
      step('check', taken);
      return fail(outcome, 'gallery-taken', taken);
    }
    // Bytes of files already in their gallery are not sent again: no need to hold them.
    if (check.galleries.length > 0)
      ctx.held.release(check.galleries.flatMap((plan) => plan.files.filter((file) => record.galleries[plan.field]?.media[file.key])));
    rememberHashes(record, check);
    outcome.withMedia = check.galleries.length > 0;
    return { outcome, text, stamp, check, journal, step, release };
  } catch (error) {
    journal.release();
    return fail(outcome, 'unexpected', l10n.t('Could not check the media: {0}', (error as Error).message));
  }
}

/** Phase 2: the requests, up to and including the final import. Never throws: the outcome says. */
export async function runSpotRequests(spot: PreparedSpot, ctx: SpotRunContext): Promise<void> {
  try {
    if (!spot.outcome.withMedia) await plainImport(spot, ctx);
    else await withMedia(spot, ctx);
  } catch (error) {
    stopped(spot.outcome, error, spot.journal.record, spot.check, ctx.options);
  } finally {
    // Every upload is over: the held bytes go now, not after the write-back that follows.
    ctx.held.release(heldFiles(spot.check));
  }
}

/**
 * Phase 3, local again: write the document back, record the journal, release the spot. The run
 * lets this finish while the next spot's requests go out.
 */
export async function finishSpot(spot: PreparedSpot, ctx: SpotRunContext): Promise<SpotOutcome> {
  const { outcome, journal } = spot;
  try {
    if (spot.final && outcome.status === 'done') {
      outcome.writeBack = await writeBack(outcome, spot, spot.final.text, spot.final.edits, journal, ctx.options, spot.step);
      done(outcome, {});
    }
    await journal.flush().catch((error: Error) => journalUnwritten(outcome, journal, error));
  } finally {
    spot.release();
  }
  return outcome;
}

/** A spot's outcome before anything happened to it: nothing imported, nothing sent or written, no reason yet. */
export function blankOutcome(input: SpotInput, status: SpotOutcome['status'] = 'failed'): SpotOutcome {
  // Two literals rather than a spread of a conditional one: made for every spot, and a literal
  // with a spread is built member by member (see withMembers.ts).
  const label = input.label ?? input.path;
  if (input.origin !== undefined)
    return {
      label,
      path: input.path,
      origin: input.origin,
      status,
      sent: false,
      imported: 'none',
      withMedia: false,
      galleries: [],
      problems: [],
      writeBack: { status: 'not-reached' },
      remaining: [],
    };
  return {
    label,
    path: input.path,
    status,
    sent: false,
    imported: 'none',
    withMedia: false,
    galleries: [],
    problems: [],
    writeBack: { status: 'not-reached' },
    remaining: [],
  };
}

/** A prepared spot the run stopped before: its journal is released untouched. */
export function abandonSpot(spot: PreparedSpot, because: RunStopKind): SpotOutcome {
  spot.release();
  return withMembers(spot.outcome, { status: 'not-started' as const, change: undefined, ...notStartedParts(because) });
}

/** What a spot the run stopped before says, by why the run stopped. */
export function notStartedParts(because: RunStopKind): Pick<SpotOutcome, 'reason' | 'failure' | 'remaining'> {
  return {
    reason: l10n.t('Not started: {0}.', runStopCause(because)),
    failure: { kind: 'not-started', because },
    remaining: [l10n.t('everything: the spot was not started')],
  };
}

/** A defect, not a service failure: reported on the spot rather than losing the other results. */
export function unexpected(input: SpotInput, error: unknown): SpotOutcome {
  return withMembers(blankOutcome(input), {
    failure: { kind: 'unexpected' as const },
    reason: l10n.t('Unexpected failure: {0}', (error as Error)?.message ?? String(error)),
    remaining: [l10n.t('run again after the cause is fixed')],
  });
}

/**
 * A document without media (or sent without them): imported as it is (the same upsert Import Spot
 * sends), unless its null gallery fields got their galleries, complete, from an earlier run with
 * media: then as that run's final import named them (completedGalleries.ts).
 */
async function plainImport(spot: PreparedSpot, ctx: SpotRunContext): Promise<SpotOutcome> {
  const { outcome, journal, step, check } = spot;
  let payload = check.parsed;
  if (!payload.document) return fail(outcome, 'unexpected', describeProblems(payload.problems));
  const record = journal.record;
  const completed = withCompletedGalleries(spot.text, payload.document.data.attributes as Record<string, unknown>, check.definition, record);
  if (completed) {
    if (!completed.result.ok) return fail(outcome, 'unexpected', completed.result.reason);
    payload = parseSpotText(completed.result.text, { topics: ctx.options.topics });
    if (!payload.document) return fail(outcome, 'unexpected', describeProblems(payload.problems));
  }
  const state = payload.document.data.attributes.state;
  const sha256 = hashText(payload.text);
  outcome.writeBack = { status: 'unchanged' };
  const attributes = payload.document.data.attributes as Record<string, unknown>;
  await warnOfEmptiedGalleries(spot, ctx, attributes);
  if ((ctx.options.skipUnchanged ?? true) && record.finalImport?.sha256 === sha256) {
    step(
      'skip',
      completed ? 'imported before with this text, its galleries complete; nothing to send' : 'imported before with this exact text; nothing to send',
    );
    // The galleries its null fields got are still waiting for media: named again, with their ids.
    for (const [field, gallery] of Object.entries(record.galleries))
      if (attributes[field] === null) outcome.galleries.push(waitingGallery(field, gallery.galleryId));
    return done(outcome, { spotId: record.spotId, state, imported: 'unchanged' });
  }
  throwIfAborted(ctx.options.signal);
  outcome.sent = true;
  const result = await sendSpot(ctx.options.client, payload, { signal: ctx.options.signal });
  record.spotId = result.spotId;
  record.finalImport = completed ? { sha256, state, at: journalTime(), galleries: completed.galleries } : { sha256, state, at: journalTime() };
  for (const pending of result.pendingGalleries) {
    // Remembered, so a later run names it again, and a run with media uploads into it.
    const known = record.galleries[pending.field];
    record.galleries[pending.field] = { galleryId: pending.galleryId, origin: 'created', media: known?.galleryId === pending.galleryId ? known.media : {} };
    outcome.galleries.push(waitingGallery(pending.field, pending.galleryId));
  }
  journal.touch();
  step('import', `imported as spot ${result.spotId} (state ${state}, no media)`);
  return done(outcome, { spotId: result.spotId, state, imported: 'final' });
}

/**
 * Media left in the galleries of fields whose folder lost every file, as warnings on the spot;
 * not when the run leaves media alone (--no-media), where an empty folder says nothing.
 */
async function warnOfEmptiedGalleries(spot: PreparedSpot, ctx: SpotRunContext, attributes: Record<string, unknown>): Promise<void> {
  const { outcome, check, journal, step } = spot;
  if (check.layout.leftAlone) return;
  const { options } = ctx;
  const planned = check.galleries.map((plan) => plan.field);
  const context = { client: options.client, journal, retry: ctx.retry, signal: options.signal, abortSignal: options.abortSignal, step };
  const problems = await emptiedGalleryProblems(context, attributes, planned, check.parsed.text, check.layout.folder);
  if (problems.length === 0) return;
  outcome.problems = [...outcome.problems, ...problems];
  outcome.checkedText = check.parsed.text;
}

/** A gallery of a spot imported without media: nothing sent to it, its media still to come. */
function waitingGallery(field: string, galleryId: number): SpotOutcome['galleries'][number] {
  return { field, galleryId, files: 0, uploaded: 0, resolved: 0, skipped: 0, failed: [], order: 'off' };
}

async function withMedia(spot: PreparedSpot, ctx: SpotRunContext): Promise<SpotOutcome> {
  const { outcome, text, check, journal, step } = spot;
  const { options } = ctx;
  const record = journal.record;
  const attributes = attributesOf(check);
  alignWithDocument(
    record,
    attributes,
    check.galleries.map((plan) => plan.field),
  );
  // The text gets two states (2 while galleries are pending, then the final one): its members are found once.
  const setSpotState = spotStateEditor(text);

  // Step 2: galleries for the fields still null, from an import with state 2.
  const pendingFields = pendingGalleryFields(attributes, check.definition).filter((field) => !record.galleries[field]);
  if (pendingFields.length > 0) {
    const pendingText = setSpotState(2, knownIds(record, attributes));
    if (!pendingText.ok) return fail(outcome, 'unexpected', pendingText.reason);
    const payload = parseSpotText(pendingText.text, { topics: options.topics });
    if (!payload.document) return fail(outcome, 'unexpected', describeProblems(payload.problems));
    throwIfAborted(options.signal);
    outcome.sent = true;
    const result = await sendSpot(options.client, payload, { signal: options.signal });
    record.spotId = result.spotId;
    record.finalImport = undefined;
    for (const { field, galleryId } of result.pendingGalleries) {
      if (attributes[field] !== null) continue;
      const known = record.galleries[field];
      record.galleries[field] = known?.galleryId === galleryId ? known : { galleryId, origin: 'created', media: {} };
    }
    journal.touch();
    outcome.imported = 'pending-only';
    outcome.spotId = result.spotId;
    const missing = pendingFields.filter((field) => !record.galleries[field]);
    step(
      'import-pending',
      `imported as spot ${result.spotId} with state 2; galleries ${pendingFields
        .filter((f) => record.galleries[f])
        .map((f) => `${f}=${record.galleries[f].galleryId}`)
        .join(', ')}`,
    );
    if (missing.length > 0) return fail(outcome, 'service', l10n.t('The service created no gallery for {0} (its reply named none).', missing.join(', ')));
  }
  outcome.spotId = record.spotId ?? outcome.spotId;

  // Step 3: every file into its gallery, exactly once.
  let complete = true;
  for (const plan of check.galleries) {
    const upload = await uploadGalleryMedia({
      client: options.client,
      journal,
      field: plan.field,
      files: plan.files,
      retry: ctx.retry,
      signal: options.signal,
      abortSignal: options.abortSignal,
      step,
      bytes: (file, sent, total) => ctx.bytes(outcome.label, file, sent, total),
    });
    outcome.galleries.push(upload.outcome);
    if (upload.leftOver.length > 0) {
      const galleryId = record.galleries[plan.field].galleryId;
      outcome.problems = [...outcome.problems, ...leftOverMediaProblems(check.parsed.text, plan.field, galleryId, check.layout.folder, upload.leftOver)];
      outcome.checkedText = check.parsed.text;
    }
    if (upload.outcome.uploaded > 0 || !upload.complete) outcome.sent = true;
    if (!upload.complete) complete = false;
    else if (upload.adopted) upload.outcome.order = 'kept';
    throwIfAborted(options.signal);
  }
  await warnOfEmptiedGalleries(spot, ctx, attributes);
  if (!complete) return fail(outcome, 'uploads', failedUploads(outcome), 'failed', record, check, options);

  // Step 4: name order.
  for (const [index, plan] of check.galleries.entries()) {
    const gallery = outcome.galleries[index];
    if (gallery.order === 'kept') continue;
    if (options.setOrder === false) {
      gallery.order = 'off';
      continue;
    }
    gallery.order = await orderGalleryMedia({
      client: options.client,
      journal,
      field: plan.field,
      files: plan.files,
      signal: options.signal,
      step: (message) => step('order', message),
    });
    if (gallery.order === 'set') outcome.sent = true;
  }

  // Step 5: the final import, with the text that is then written back.
  const finalState = options.finalState ?? 1;
  const namedIds = knownIds(record, attributes);
  const final = setSpotState(finalState, namedIds);
  if (!final.ok) return fail(outcome, 'unexpected', final.reason);
  const payload = parseSpotText(final.text, { topics: options.topics });
  if (!payload.document) return fail(outcome, 'unexpected', describeProblems(payload.problems));
  const sha256 = hashText(payload.text);
  if ((options.skipUnchanged ?? true) && record.finalImport?.sha256 === sha256) {
    outcome.imported = outcome.imported === 'none' ? 'unchanged' : outcome.imported;
    step('skip', `spot ${record.spotId ?? '?'} already imported with state ${finalState} and its gallery ids`);
  } else {
    throwIfAborted(options.signal);
    outcome.sent = true;
    const result = await sendSpot(options.client, payload, { signal: options.signal });
    record.spotId = result.spotId;
    // Every gallery is complete here: a run without media sends these ids too, not null.
    record.finalImport =
      Object.keys(namedIds).length > 0
        ? { sha256, state: finalState, at: journalTime(), galleries: namedIds }
        : { sha256, state: finalState, at: journalTime() };
    record.writeBack = undefined;
    journal.touch();
    outcome.imported = 'final';
    step(
      'import-final',
      `imported spot ${result.spotId} with state ${finalState} and gallery ids ${check.galleries.map((g) => `${g.field}=${record.galleries[g.field].galleryId}`).join(', ')}`,
    );
  }
  outcome.spotId = record.spotId;
  outcome.state = finalState;

  // Step 6 (in finishSpot): the document says what the service holds.
  spot.final = { text: final.text, edits: final.edits };
  return done(outcome, {});
}

/**
 * A gallery the document names for its media that another spot has: another source id's record in
 * the journal (a document copied from a finished spot keeps its gallery ids), or an earlier
 * document of this run. Its files would be matched by count against that spot's media and never
 * sent, or two spots would upload into one gallery at once. The rule is galleryClaims.ts's; two
 * fields of one document naming one gallery are the media check's problem, refused before this.
 */
function galleryOfAnotherSpot(check: SpotMediaCheck, journal: SpotJournal, path: string, ctx: SpotRunContext): string | undefined {
  const attributes = attributesOf(check);
  for (const { field } of check.galleries) {
    const galleryId = attributes[field];
    if (!isGalleryId(galleryId)) continue;
    const owner = journal.galleryOwner(galleryId);
    // Another spot's in the journal: refused, and not claimed (the owner, later in this run, goes on).
    if (owner !== undefined && owner !== 'this spot') {
      return l10n.t(
        '{0} names gallery {1}, the gallery of source_id "{2}" in the journal {3} (a document copied from another spot keeps its gallery ids). Set {0} to null and this spot gets a gallery of its own; nothing was sent.',
        field,
        galleryId,
        owner.otherSourceId,
        journal.file,
      );
    }
    // Nobody's yet: the first document of the run that names it keeps it.
    const earlier = ctx.claimGallery(galleryId, path, owner === 'this spot');
    if (earlier !== undefined) {
      return l10n.t(
        '{0} names gallery {1}, and so does {2} in this run: a gallery holds the media of one spot. Set {0} to null and this spot gets a gallery of its own; nothing was sent.',
        field,
        galleryId,
        ctx.options.describePath?.(earlier) ?? earlier,
      );
    }
  }
  return undefined;
}

/**
 * A gallery id in the document wins over what the journal remembers for that field. Only fields
 * with media count: without topic definitions any fld_ member holding a number looks like a
 * gallery, and remembered as one it would later compete for the files sitting directly in the
 * media folder.
 */
function alignWithDocument(record: SpotJournalRecord, attributes: Record<string, unknown>, mediaFields: readonly string[]): void {
  for (const field of mediaFields) {
    const value = attributes[field];
    if (!isGalleryId(value)) continue;
    if (record.galleries[field]?.galleryId !== value) record.galleries[field] = { galleryId: value, origin: 'document', media: {} };
  }
}

/** Gallery ids the journal knows for fields the document still has as null. */
function knownIds(record: SpotJournalRecord, attributes: Record<string, unknown>): Record<string, number> {
  const ids: Record<string, number> = {};
  for (const [field, gallery] of Object.entries(record.galleries)) if (attributes[field] === null) ids[field] = gallery.galleryId;
  return ids;
}

async function writeBack(
  outcome: SpotOutcome,
  { text, stamp }: Pick<PreparedSpot, 'text' | 'stamp'>,
  finalText: string,
  edits: SpotTextEdit[],
  journal: SpotJournal,
  options: EngineOptions,
  step: (name: StepName, message: string) => void,
): Promise<WriteBackOutcome> {
  const record = journal.record;
  if (finalText === text) return { status: 'unchanged' };
  const remember = (status: 'written' | 'disabled' | 'conflict' | 'failed') => {
    if (record.writeBack?.status === status) return;
    record.writeBack = { status, at: journalTime() };
    journal.touch();
  };
  if (options.writeBack === false) {
    remember('disabled');
    return { status: 'disabled', reason: l10n.t('The document was left as it is; the journal ({0}) remembers its gallery ids and state.', journal.file) };
  }
  const writer = options.writeBack ?? writeSpotFileInPlace;
  try {
    const result = await writer({ path: outcome.path, originalText: text, text: finalText, edits, ...(stamp ? { stamp } : {}) });
    if (result === 'written') {
      remember('written');
      step('write-back', `${outcome.path}: gallery ids and state ${outcome.state} written into the document`);
      return { status: 'written' };
    }
    remember('conflict');
    const reason = l10n.t(
      '{0} changed since it was read, so it was not overwritten; the journal keeps its gallery ids and state, and running again writes them.',
      outcome.path,
    );
    step('write-back', reason);
    return { status: 'conflict', reason };
  } catch (error) {
    remember('failed');
    const reason = l10n.t(
      'Could not write the gallery ids into {0}: {1}. The journal keeps them; running again writes them.',
      outcome.path,
      (error as Error).message,
    );
    step('write-back', reason);
    return { status: 'failed', reason };
  }
}

/** The attributes of a document that passed its check (so it has them). */
function attributesOf(check: SpotMediaCheck): Record<string, unknown> {
  return (check.parsed.value as { data: { attributes: Record<string, unknown> } }).data.attributes;
}

function heldFiles(check: SpotMediaCheck): readonly CheckedMediaFile[] {
  // A spot without media (every spot of a bulk import without media) makes no array of its own.
  return check.galleries.length === 0 ? NO_FILES : check.galleries.flatMap((gallery) => gallery.files);
}

const NO_FILES: readonly CheckedMediaFile[] = [];

function rememberHashes(record: SpotJournalRecord, check: SpotMediaCheck): void {
  // A spot without media has no cache to keep (and its journal line no empty member to write).
  if (check.galleries.length === 0) {
    record.files = undefined;
    return;
  }
  const files: NonNullable<SpotJournalRecord['files']> = {};
  for (const gallery of check.galleries) {
    // A file left for its upload to hash gets its entry when it is hashed (galleryUploads.ts).
    for (const file of gallery.files) if (!file.hashWhenSent) files[file.relativePath] = { size: file.size, mtimeMs: file.mtimeMs, sha256: file.sha256 };
  }
  record.files = files;
}

function done(outcome: SpotOutcome, details: Partial<SpotOutcome>): SpotOutcome {
  Object.assign(outcome, details, { status: 'done' as const, failure: undefined });
  // Nothing went out: the service already held all of it (the journal's word, checked against the galleries).
  if (!outcome.sent) outcome.change = 'unchanged';
  outcome.remaining =
    outcome.writeBack.status === 'conflict' || outcome.writeBack.status === 'failed' ? [l10n.t('write the gallery ids and state into the document')] : [];
  return outcome;
}

/**
 * A check that sends nothing: the import's own check of the document and its media (no content
 * hashed: nothing is sent), settled as checked or invalid, with its problems placed on its text.
 */
async function checkedOnly(
  input: SpotInput,
  outcome: SpotOutcome,
  text: string,
  parsed: ParsedSpotText,
  layout: MediaLayout | undefined,
  options: EngineOptions,
  step: (name: StepName, message: string) => void,
): Promise<SpotOutcome> {
  const check = input.check
    ? withTopicRules(input.check, options, input.problems)
    : await checkSpotForImport(input.path, text, withMembers(options, { layout, parsed, hashFiles: false }), input.problems);
  if (!check.ok) return invalid(outcome, check, step);
  setProblems(outcome, check.problems, parsed.text);
  outcome.status = 'checked';
  outcome.change = undefined;
  step('check', 'checked: nothing is sent');
  return outcome;
}

function invalid(outcome: SpotOutcome, check: SpotMediaCheck, step: (name: StepName, message: string) => void): SpotOutcome {
  outcome.status = 'invalid';
  outcome.failure = { kind: 'invalid' };
  outcome.change = undefined;
  setProblems(outcome, check.problems, check.parsed.text);
  const errors = check.problems.filter((problem) => problem.severity === 'error');
  outcome.reason = describeProblems(errors, errors.length === 0 ? l10n.t('Not a spot document.') : undefined);
  step('check', `not sent: ${outcome.reason}`);
  return outcome;
}

function fail(
  outcome: SpotOutcome,
  kind: SpotFailureKind,
  reason: string,
  status: 'failed' | 'invalid' = 'failed',
  record?: SpotJournalRecord,
  check?: SpotMediaCheck,
  options?: EngineOptions,
): SpotOutcome {
  outcome.status = status;
  outcome.failure = { kind };
  outcome.change = undefined;
  outcome.reason = reason;
  if (record && check && options) outcome.remaining = remainingWork(record, check, options);
  return outcome;
}

/** Ends a spot on a thrown error: cancelled, refused credentials, a failed request, or a defect. */
function stopped(outcome: SpotOutcome, error: unknown, record: SpotJournalRecord, check: SpotMediaCheck | undefined, options: EngineOptions): SpotOutcome {
  outcome.change = undefined;
  outcome.remaining = check?.ok ? remainingWork(record, check, options) : [];
  if (!(error instanceof ServiceError) && !isCancellation(error)) {
    // A defect (a TypeError), not the service's doing: saying "could not reach" would send the
    // user after the wrong cause, and would stop the run as if the network were down.
    const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
    outcome.status = 'failed';
    outcome.failure = { kind: 'unexpected' };
    outcome.reason = l10n.t('Unexpected failure ({0}): {1}', name, message);
    return outcome;
  }
  const failure = error instanceof ServiceError ? error : new CancelledError();
  outcome.error = failure;
  outcome.status = isCancellation(failure) ? 'cancelled' : 'failed';
  outcome.failure = { kind: failureKindOf(failure) };
  outcome.reason = outcome.status === 'cancelled' ? l10n.t('Cancelled.') : failure.message;
  return outcome;
}

/** A failed request, typed: what the front ends word and act on (Update Credentials, Retry, …). */
function failureKindOf(error: ServiceError): SpotFailureKind {
  if (isCancellation(error)) return 'cancelled';
  if (error instanceof JournalError) return 'journal';
  if (error instanceof AuthenticationError || (error.kind === 'http' && error.status === 403)) return 'credentials';
  if (error.kind === 'network' || error.kind === 'timeout') return 'network';
  return 'service';
}

/** The last steps happened but could not be recorded: a second run repeats them (all are safe to repeat). */
function journalUnwritten(outcome: SpotOutcome, journal: SpotJournal, error: Error): void {
  const unwritten = l10n.t('The journal {0} could not be written ({1}); a second run repeats the last steps.', journal.file, error.message);
  outcome.reason = outcome.reason ? `${outcome.reason} ${unwritten}` : unwritten;
  if (outcome.status !== 'done') return;
  outcome.status = 'failed';
  outcome.failure = { kind: 'journal' };
  outcome.change = undefined;
}

function failedUploads(outcome: SpotOutcome): string {
  const failures = outcome.galleries.flatMap((gallery) =>
    gallery.failed.map((failure) => (failure.file ? `${failure.file}: ${failure.reason}` : failure.reason)),
  );
  if (failures.length === 0) return l10n.t('Not every file reached its gallery, so the spot keeps state 2: an upload did not finish');
  if (failures.length === 1) return l10n.t('Not every file reached its gallery, so the spot keeps state 2: {0}', failures[0]);
  if (failures.length === 2) return l10n.t('Not every file reached its gallery, so the spot keeps state 2: {0} (and 1 more)', failures[0]);
  return l10n.t('Not every file reached its gallery, so the spot keeps state 2: {0} (and {1} more)', failures[0], failures.length - 1);
}

/** What a second run will do for a spot, from the journal and the documents's check. */
function remainingWork(record: SpotJournalRecord, check: SpotMediaCheck, options: EngineOptions): string[] {
  if (check.galleries.length === 0) return record.finalImport ? [] : [l10n.t('import the document')];
  const work: string[] = [];
  const attributes = attributesOf(check);
  const uncreated = pendingGalleryFields(attributes, check.definition).filter((field) => !record.galleries[field]);
  if (uncreated.length > 0) work.push(l10n.t('import with state 2 to create the galleries of {0}', uncreated.join(', ')));
  for (const plan of check.galleries) work.push(...galleryWork(record, plan, options));
  if (!record.finalImport || record.finalImport.state !== (options.finalState ?? 1))
    work.push(l10n.t('import with state {0} and every gallery id', options.finalState ?? 1));
  if (record.writeBack?.status !== 'written' && options.writeBack !== false) work.push(l10n.t('write the gallery ids and state into the document'));
  return work;
}

/** What a second run does for one gallery, each said of the gallery by its id when it has one, else by its field. */
function galleryWork(record: SpotJournalRecord, plan: GalleryPlan, options: EngineOptions): string[] {
  const gallery = record.galleries[plan.field];
  const field = plan.field;
  const work: string[] = [];
  if (gallery?.pending) {
    work.push(l10n.t('check in gallery {0} ({1}) whether {2} arrived (its reply was lost)', gallery.galleryId, field, gallery.pending.file));
  }
  const missing = plan.files.filter((file) => !gallery?.media[file.key] && file.key !== gallery?.pending?.key).length;
  if (missing > 0) {
    const total = plan.files.length;
    work.push(
      gallery
        ? l10n.t('upload {0} of {1} files to gallery {2} ({3})', missing, total, gallery.galleryId, field)
        : l10n.t('upload {0} of {1} files to the gallery of {2}', missing, total, field),
    );
  }
  if (options.setOrder !== false) {
    const desired = plan.files.map((file) => gallery?.media[file.key]?.mediaId);
    const ordered = gallery?.order && desired.every((id, index) => id === gallery.order![index]);
    if (!ordered)
      work.push(
        gallery ? l10n.t('set the media order of gallery {0} ({1})', gallery.galleryId, field) : l10n.t('set the media order of the gallery of {0}', field),
      );
  }
  return work;
}

/** The spot's problems, with the text their offsets are in when there are any (a run's outcomes hold no text otherwise). */
function setProblems(outcome: SpotOutcome, problems: SpotProblem[], text: string | undefined): void {
  outcome.problems = problems;
  if (problems.length > 0 && text !== undefined) outcome.checkedText = text;
}
