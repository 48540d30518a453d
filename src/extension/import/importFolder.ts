// Import Folder: every spot document under a folder through the core's import engine, documents
// with a media folder beside them with their media, in one cancellable progress notification
// ("Looking for spot documents…", then "spot n of N" and the bytes of the file on its way).
// Resumable: the journal (.spot-import/) remembers each step, so a second run finishes what the
// first left and sends nothing that is done. The galleries of the spots are remembered for the
// Galleries view as the spots land (in batches), so a window closed during a long run keeps them.
// Whatever ends the run, the user gets the summary of importReport.ts.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { required } from '../platform/cancellation';
import { profileLabel } from '../platform/domain';
import { activeProfile } from '../profiles/activeProfile';
import type { CommandServices } from '../commands/commandTable';
import { DEFAULT_LIMITS, findSpotFiles, type SearchLimits } from '../documents/findSpotFiles';
import { openAtProblem } from '../documents/spotTarget';
import { reportRun, type FolderImportSummary, type RunSubject } from './importReport';
import type { DEFAULT_RECORD_EVERY } from './importRun';
import { importWithProgress } from './importWithProgress';

export type { FolderImportSummary } from './importReport';

export interface FolderImportOptions {
  /** Cancels as the notification's Cancel button does (tests; callers with their own cancel). */
  signal?: AbortSignal;
  /** Told of every engine event (tests cancel part-way with it). */
  onProgress?: (event: Core.ImportProgress) => void;
  /** Lower search limits (tests). */
  limits?: SearchLimits;
  /** How often galleries are written while the run goes on (tests). */
  recordEvery?: Partial<typeof DEFAULT_RECORD_EVERY>;
}

async function chooseFolder(services: CommandServices, arg: unknown): Promise<vscode.Uri> {
  if (arg instanceof vscode.Uri) return arg;
  const picked = required(
    await services.ui.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      openLabel: vscode.l10n.t('Import Spots'),
      title: vscode.l10n.t('Import every spot document under this folder'),
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    }),
  );
  return required(picked[0]);
}

/** The command (Explorer passes the folder's Uri; the palette asks for one). */
export function importFolder(services: CommandServices, target?: unknown): Promise<FolderImportSummary | undefined> {
  return runFolderImport(services, target, {});
}

/** undefined: nothing to import, or cancelled before anything was sent. */
export async function runFolderImport(services: CommandServices, target: unknown, options: FolderImportOptions): Promise<FolderImportSummary | undefined> {
  const folder = await chooseFolder(services, target);
  const folderName = vscode.workspace.asRelativePath(folder, false) || folder.path.split('/').pop() || folder.path;
  const profile = await activeProfile(services);

  const run = await importWithProgress(
    services,
    {
      title: vscode.l10n.t('Importing spot documents from {0} to {1}', folderName, profileLabel(profile)),
      subject: folderName,
      profile,
      signal: options.signal,
    },
    async (run) => {
      run.say(vscode.l10n.t('Looking for spot documents…'));
      const found = await findSpotFiles(run.core, folder, {
        signal: run.signal,
        log: services.log,
        limits: options.limits,
        onFound: (count) => run.say(vscode.l10n.t('Looking for spot documents… {0} found', count)),
      });
      if (found.uris.length === 0) return { found };
      await run.client();
      const uriOf = new Map(found.uris.map((uri) => [uri.fsPath, uri.toString()]));
      run.say(vscode.l10n.t('{0} of {1}', 0, found.uris.length));
      const engine = await run.engine({
        target: folder,
        isFolder: true,
        lines: 'spots',
        record: { uriOf: (spot) => uriOf.get(spot.path) ?? vscode.Uri.file(spot.path).toString(), every: options.recordEvery },
        onProgress: options.onProgress,
      });
      services.log.info('import', `folder ${folderName}: ${found.uris.length} documents (journal ${engine.journal.dir})`);
      const source = run.core.spotDocumentFiles(
        found.uris.map((uri) => uri.fsPath),
        { label: (path) => vscode.workspace.asRelativePath(path, false) },
      );
      return { found, outcome: await run.core.runImport(source, engine) };
    },
  );
  if (!run) return undefined;
  if (!run.outcome) {
    void services.ui.showInformationMessage(
      vscode.l10n.t('No spot documents under {0}: they are *.spot.json files, or .json files whose data.type is "spots".', folderName),
    );
    return undefined;
  }
  const again = vscode.l10n.t('What was done stays done; importing the folder again finishes the rest (the journal in .spot-import remembers each step).');
  const subject: RunSubject = { name: folderName, items: 'spot documents', again, open: openDocumentAtProblem };
  return reportRun(services, profile, subject, run.outcome, run.found.truncated ? (options.limits ?? DEFAULT_LIMITS) : undefined);
}

/** A spot document, at its first error (or first problem). */
async function openDocumentAtProblem(spot: Core.SpotOutcome): Promise<void> {
  const problem = spot.problems.find((candidate) => candidate.severity === 'error') ?? spot.problems[0];
  await openAtProblem(vscode.Uri.file(spot.path), problem?.offset ?? 0, problem?.length ?? 0);
}
