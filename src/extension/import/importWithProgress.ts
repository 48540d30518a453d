// The editor's one run front end: every import command (Import Spot, Import Spot with Media, Import
// Folder, Import Table Rows as Spots) runs the engine through it, in a cancellable progress notification
// with the same lines ("spot 3 of 10: …", "row 3: …", the bytes of the file on its way), the same
// client start (the sandbox says it is starting), the galleries remembered for the Galleries view
// as the spots land, and one wording for a run cancelled before anything was sent.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { isCancellation, withCancellableProgress } from '../platform/cancellation';
import type { Profile } from '../platform/domain';
import type { CoreModule } from '../platform/lazyCore';
import { startingMessage } from '../profiles/activeProfile';
import type { CommandServices } from '../commands/commandTable';
import { DEFAULT_RECORD_EVERY, engineOptions, GalleryRecorder, type RunSetup } from './importRun';

export interface ImportRequest {
  /** The notification's title. */
  title: string;
  /** What is imported, as the log and the cancel message name it: a folder, a table, "walk-1" in quotes. */
  subject: string;
  profile: Profile;
  /** Cancels as the notification's Cancel button does (tests; callers with a cancel of their own). */
  signal?: AbortSignal;
}

/** How the notification counts a run's items: documents, rows (their number may be unknown), or one spot's bytes alone. */
type ProgressLines = 'spots' | 'rows' | 'bytes';

interface EngineSetup extends Pick<RunSetup, 'target' | 'isFolder' | 'keepInProgress'> {
  lines: ProgressLines;
  /** Remember the galleries of the spots as they land (a run of many): the document a spot came from. */
  record?: { uriOf: (spot: Core.SpotOutcome) => string | undefined; every?: Partial<typeof DEFAULT_RECORD_EVERY> };
  /** Told of every engine event (tests cancel part-way with it). */
  onProgress?: (event: Core.ImportProgress) => void;
}

export interface RunInProgress {
  readonly core: CoreModule;
  readonly signal: AbortSignal;
  /** A line under the title. */
  say(message: string): void;
  /** The profile's client; the first use of the sandbox starts it, and the line says so. */
  client(): Promise<Core.ServiceClient>;
  /** The engine's options for the target, with this notification's lines and the gallery recorder. */
  engine(setup: EngineSetup): Promise<Core.ImportRunOptions>;
}

/**
 * Runs `body` in the notification; undefined when it was cancelled before the engine sent anything
 * (the user is told so). The recorder's last write happens before it returns, whatever ends the run.
 */
export async function importWithProgress<T>(
  services: CommandServices,
  request: ImportRequest,
  body: (run: RunInProgress) => Promise<T>,
): Promise<T | undefined> {
  const core = await services.core();
  let recorder: GalleryRecorder | undefined;
  try {
    return await withCancellableProgress({ title: request.title, signal: request.signal }, (progress, signal) => {
      let client: Promise<Core.ServiceClient> | undefined;
      const run: RunInProgress = {
        core,
        signal,
        say: (message) => progress.report({ message }),
        client: () =>
          (client ??= (async () => {
            const starting = startingMessage(request.profile);
            if (starting) progress.report({ message: starting });
            const { client: made } = await services.clients.clientFor(request.profile.id);
            signal.throwIfAborted();
            return made;
          })()),
        engine: async (setup) => {
          if (setup.record) recorder = new GalleryRecorder(services, request.profile, setup.record.uriOf, { ...DEFAULT_RECORD_EVERY, ...setup.record.every });
          const lines = progressLines(setup.lines, (report) => progress.report(report), recorder);
          return engineOptions(services, core, {
            profile: request.profile,
            client: await run.client(),
            target: setup.target,
            isFolder: setup.isFolder,
            keepInProgress: setup.keepInProgress,
            signal,
            onProgress: (event) => {
              lines(event);
              setup.onProgress?.(event);
            },
          });
        },
      };
      return body(run);
    });
  } catch (error) {
    // Cancelled before the engine ran (while looking for files, or while the client started): nothing was sent.
    if (!isCancellation(error)) throw error;
    services.log.info('import', `${request.subject}: cancelled before anything was sent`);
    void services.ui.showWarningMessage(cancelledBeforeSending(request.subject), {});
    return undefined;
  } finally {
    await recorder?.finish();
  }
}

/** The one wording of a run cancelled before its first request. */
export function cancelledBeforeSending(subject: string): string {
  return vscode.l10n.t('Import of {0} cancelled before anything was sent.', subject);
}

type Report = (report: { message?: string; increment?: number }) => void;

/** The notification's lines for each engine event; a settled spot goes to the recorder. */
function progressLines(lines: ProgressLines, report: Report, recorder: GalleryRecorder | undefined): (event: Core.ImportProgress) => void {
  let current = '';
  return (event) => {
    if (event.kind === 'spot') {
      if (lines === 'bytes') return;
      current =
        lines === 'spots'
          ? vscode.l10n.t('spot {0} of {1}: {2}', event.index, event.total, event.label)
          : event.total > 0
            ? vscode.l10n.t('row {0} of {1}: {2}', event.index, event.total, event.label)
            : vscode.l10n.t('row {0}: {1}', event.index, event.label);
      report({ message: current });
    } else if (event.kind === 'bytes') {
      report({
        message:
          lines === 'bytes'
            ? vscode.l10n.t('{0}: {1} of {2}', event.file, kib(event.sentBytes), kib(event.totalBytes))
            : vscode.l10n.t('{0} — {1} {2} of {3} KB', current, event.file, Math.round(event.sentBytes / 1024), Math.round(event.totalBytes / 1024)),
      });
    } else {
      recorder?.add(event.outcome);
      if (lines !== 'bytes' && event.total > 0) report({ increment: 100 / event.total });
    }
  };
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`;
}
