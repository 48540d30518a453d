// Import Spot: validate the open document; with problems, show them and send nothing; otherwise
// send it under a cancellable progress notification and report the spot id and its pending
// galleries. Returns the result so tests and other commands can use it.
import type * as Core from '../core';
import { describeProblems } from '../core/documents/problemSummary';
import { validateSpotDocumentNow } from '../documents/spotDiagnostics';
import { documentOffset } from '../documents/spotDocuments';
import { isCancellation, required, withCancellableProgress } from '../platform/cancellation';
import { ActionableError } from '../platform/errors';
import type { ExtensionServices } from '../platform/services';
import { profileLabel } from '../platform/domain';
import { activeProfile, startingMessage } from './activeProfile';
import { importKind, rememberImported } from './importedSources';
import { announceImport, pendingAsKnown } from './importResultActions';
import { openAtProblem, spotTargetSpotDocument } from './spotTarget';
import { BUILT_IN_COMMAND } from '../platform/commandIds';

export interface ImportSpotOptions {
  /** Cancels as the notification's Cancel button does (tests; callers with their own cancel). */
  signal?: AbortSignal;
}

/** The command: `target` is the document's Uri (CodeLens, menus) or absent (active editor). */
export function importSpot(services: ExtensionServices, target?: unknown): Promise<Core.ImportResult | undefined> {
  return runImportSpot(services, target, {});
}

/** undefined: cancelled (the user was told what that means for the spot). */
export async function runImportSpot(services: ExtensionServices, target: unknown, options: ImportSpotOptions): Promise<Core.ImportResult | undefined> {
  const core = await services.core();
  const { document, name } = await spotTargetSpotDocument(core, target);

  // The same check the editor's diagnostics run, published at once rather than after the debounce.
  const parsed = await validateSpotDocumentNow(core, document);
  if (!parsed.document) {
    const first = parsed.problems[0];
    services.log.info('import', `${name} not sent: ${parsed.problems.length} problem(s)`, parsed.problems.map((problem) => `${problem.pointer || '/'}: ${problem.message}`));
    if (first) await openAtProblem(document.uri, documentOffset(document, first.offset), first.length);
    throw new ActionableError(`Not imported, nothing was sent: ${name}: ${describeProblems(parsed.problems)}`, [
      { title: 'Show Problems', command: BUILT_IN_COMMAND.showProblems },
    ]);
  }

  const spot = parsed.document;
  const sourceId = spot.data.attributes.source_id;
  const profile = await activeProfile(services);
  const label = profileLabel(profile);
  if (profile.topicId !== undefined && spot.data.attributes.topic_id !== profile.topicId) {
    const answer = await services.ui.showWarningMessage(
      `${name} has topic_id ${spot.data.attributes.topic_id}, but profile "${label}" serves topic ${profile.topicId}. Import anyway?`,
      { modal: true },
      'Import',
    );
    required(answer === 'Import' ? answer : undefined);
  }

  let sent = false;
  let result: Core.ImportResult;
  try {
    result = await withCancellableProgress({ title: `Importing "${sourceId}" to ${label}`, signal: options.signal }, async (progress, signal) => {
      // Built in here: the first use of the sandbox profile starts the sandbox, which takes a moment.
      const starting = startingMessage(profile);
      if (starting) progress.report({ message: starting });
      const { client } = await services.clients.clientFor(profile.id);
      signal.throwIfAborted();
      progress.report({ message: 'Sending…' });
      sent = true;
      // The text as validated (unsaved edits included), not the document serialised again.
      return core.sendSpot(client, parsed, { signal });
    });
  } catch (error) {
    if (!isCancellation(error)) throw error;
    services.log.info('import', `${name}: import of "${sourceId}" cancelled ${sent ? 'while it was being sent' : 'before anything was sent'}`);
    void services.ui.showWarningMessage(
      sent
        ? `Import of "${sourceId}" cancelled. If the request had already reached ${label}, the spot exists anyway; importing again updates it.`
        : `Import of "${sourceId}" cancelled before anything was sent.`,
      {},
    );
    return undefined;
  }
  const kind = importKind(services, profile.id, sourceId);
  await rememberImported(services, profile.id, [sourceId]);
  services.log.info('import', `${name}: "${sourceId}" imported as spot ${result.spotId} (${kind === 'new' ? 'new to this profile' : 'an update'})`, { pendingGalleries: result.pendingGalleries });
  if (result.pendingGalleries.length > 0) {
    // The import succeeded; a failure to remember its galleries must not turn it into an error.
    await services.galleries.add(profile.id, pendingAsKnown(result, sourceId, document.uri.toString()))
      .catch((error: unknown) => services.log.warn('import', `could not remember the pending galleries of "${sourceId}"`, error));
  }
  if (spot.data.attributes.state === 1) await noLongerWaiting(services, profile.id, sourceId);
  announceImport(services, profile, sourceId, result, kind);
  return result;
}

/**
 * A spot imported as active (state 1) waits for no media: its galleries stop saying "waiting for
 * media" in the Galleries view, whether or not media were uploaded to them.
 */
async function noLongerWaiting(services: ExtensionServices, profileId: string, sourceId: string): Promise<void> {
  for (const gallery of services.galleries.list(profileId)) {
    if (!gallery.pending || gallery.spot?.sourceId !== sourceId) continue;
    await services.galleries.markUploaded(profileId, gallery.galleryId).catch((error: unknown) => services.log.warn('import', `could not update gallery ${gallery.galleryId}`, error));
  }
}
