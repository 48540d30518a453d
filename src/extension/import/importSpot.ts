// Import Spot: the open document, as it stands (unsaved edits included), through the core's import
// engine without its media: checked as the editor checks it (with problems it shows them and
// sends nothing), then sent under a cancellable progress notification, and the spot id and its
// pending galleries reported. The user asked to send this document, so it is sent even when the
// journal knows it. Returns what the service answered so tests and other commands can use it.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { spotTargetSpotDocument } from '../documents/spotTarget';
import { ActionableError } from '../platform/errors';
import { profileLabel } from '../platform/domain';
import { activeProfile } from '../profiles/activeProfile';
import type { CommandServices } from '../commands/commandTable';
import { GalleryRecorder, refusal } from './importRun';
import { cancelledBeforeSending, importWithProgress } from './importWithProgress';
import { announceImport, pendingGalleriesOf } from './importResultActions';

export interface ImportSpotOptions {
  /** Cancels as the notification's Cancel button does (tests; callers with their own cancel). */
  signal?: AbortSignal;
}

/** The command: `target` is the document's Uri (CodeLens, menus) or absent (active editor). */
export function importSpot(services: CommandServices, target?: unknown): Promise<Core.ImportResult | undefined> {
  return runImportSpot(services, target, {});
}

/** The spot id and its pending galleries; undefined: cancelled (the user was told what that means for the spot). */
export async function runImportSpot(services: CommandServices, target: unknown, options: ImportSpotOptions): Promise<Core.ImportResult | undefined> {
  const core = await services.core();
  const { document, name } = await spotTargetSpotDocument(core, target);
  // The same check the editor's diagnostics run, published at once rather than after the debounce.
  const parsed = await services.checker.checkNow(core, document);
  const refuse = (problems: readonly Core.SpotProblem[]) => refusal(services, core, document, name, problems);
  if (!parsed.document) throw await refuse(parsed.problems);

  const sourceId = parsed.document.data.attributes.source_id;
  const profile = await activeProfile(services);
  const label = profileLabel(profile);
  const outcome = await importWithProgress(
    services,
    { title: vscode.l10n.t('Importing "{0}" to {1}', sourceId, label), subject: `"${sourceId}"`, profile, signal: options.signal },
    async (run) => {
      // The first use of the sandbox profile starts the sandbox, which takes a moment.
      await run.client();
      run.say(vscode.l10n.t('Sending…'));
      const engine = await run.engine({ target: document.uri, lines: 'bytes' });
      // The text as validated (unsaved edits included), not the document serialised again.
      const input: Core.SpotInput = {
        path: document.uri.scheme === 'file' ? document.uri.fsPath : document.uri.toString(),
        label: name,
        text: parsed.text,
        parsed,
        media: false,
      };
      return run.core.importOneSpot(input, { ...engine, skipUnchanged: false, writeBack: false });
    },
  );
  if (!outcome) return undefined;
  if (outcome.status === 'cancelled' || outcome.status === 'not-started') {
    services.log.info('import', `${name}: import of "${sourceId}" cancelled ${outcome.sent ? 'while it was being sent' : 'before anything was sent'}`);
    void services.ui.showWarningMessage(
      outcome.sent
        ? vscode.l10n.t(
            'Import of "{0}" cancelled. If the request had already reached {1}, the spot exists anyway; importing again updates it.',
            sourceId,
            label,
          )
        : cancelledBeforeSending(`"${sourceId}"`),
      {},
    );
    return undefined;
  }
  // The topic rules (the profile's topic, the topic definitions) refused it.
  if (outcome.status === 'invalid') throw await refuse(outcome.problems);
  if (outcome.status !== 'done')
    throw (
      outcome.error ??
      new ActionableError(
        outcome.reason !== undefined
          ? vscode.l10n.t('Import of "{0}" failed: {1}', sourceId, outcome.reason)
          : vscode.l10n.t('Import of "{0}" failed: unknown reason', sourceId),
      )
    );

  services.log.info('import', `${name}: "${sourceId}" imported as spot ${outcome.spotId} (${outcome.change === 'new' ? 'new to this journal' : 'an update'})`, {
    galleries: outcome.galleries,
  });
  const recorder = new GalleryRecorder(services, profile, () => document.uri.toString());
  recorder.add(outcome);
  await recorder.flush();
  if (outcome.state === 1) await noLongerWaiting(services, profile.id, sourceId);
  announceImport(services, profile, outcome);
  return { spotId: outcome.spotId!, pendingGalleries: pendingGalleriesOf(outcome) };
}

/**
 * A spot imported as active (state 1) waits for no media: its galleries stop saying "waiting for
 * media" in the Galleries view, whether or not media were uploaded to them.
 */
async function noLongerWaiting(services: CommandServices, profileId: string, sourceId: string): Promise<void> {
  for (const gallery of services.galleries.list(profileId)) {
    if (!gallery.pending || gallery.spot?.sourceId !== sourceId) continue;
    await services.galleries
      .markUploaded(profileId, gallery.galleryId)
      .catch((error: unknown) => services.log.warn('import', `could not update gallery ${gallery.galleryId}`, error));
  }
}
