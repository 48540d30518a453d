// Import Folder: every spot document under a folder through the core's bulk import, with
// "n of N" progress and cancel. Pending galleries are recorded as each import lands (so a
// cancelled run keeps what arrived). The summary lists each failure with its file and reason;
// picking one opens the file at the problem.
import * as vscode from 'vscode';
import type * as Core from '../core';
import { isCancellation, required, withCancellableProgress } from '../platform/cancellation';
import { profileLabel, type ExtensionServices } from '../platform/services';
import { readSettings } from '../platform/settings';
import { findSpotFiles, uriItems } from './findSpotFiles';
import { pendingAsKnown } from './importResultActions';
import { openAtProblem } from './spotTarget';

export interface FolderImportSummary {
  total: number;
  imported: Array<{ file: string; sourceId: string; spotId: number }>;
  failed: Array<{ file: string; reason: string }>;
}

async function chooseFolder(services: ExtensionServices, arg: unknown): Promise<vscode.Uri> {
  if (arg instanceof vscode.Uri) return arg;
  const picked = required(await services.ui.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Import Spots',
    title: 'Import every spot document under this folder',
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  }));
  return required(picked[0]);
}

export async function importFolder(services: ExtensionServices, target?: unknown): Promise<FolderImportSummary | undefined> {
  const folder = await chooseFolder(services, target);
  const folderName = vscode.workspace.asRelativePath(folder, false) || folder.path.split('/').pop() || folder.path;
  const core = await services.core();
  const uris = await findSpotFiles(core, folder);
  if (uris.length === 0) {
    void services.ui.showInformationMessage(`No spot documents under ${folderName}: they are *.spot.json files, or .json files whose data.type is "spots".`);
    return undefined;
  }
  const { profile, client } = await services.clients.client();
  const items = uriItems(core, uris);
  const byLabel = new Map(items.map((item) => [item.label, item.uri]));
  const label = profileLabel(profile);
  let done = 0;

  let outcome: Core.BulkImportOutcome;
  try {
    outcome = await withCancellableProgress({ title: `Importing ${uris.length} spot documents to ${label}` }, (progress, signal) => {
      progress.report({ message: `0 of ${uris.length}` });
      return core.bulkImport(items, client, {
        concurrency: readSettings().bulkConcurrency,
        signal,
        onProgress: (count, total, last) => {
          done = count;
          progress.report({ message: `${count} of ${total}`, increment: 100 / total });
          if (last.ok && last.result.pendingGalleries.length > 0) {
            void services.galleries.add(profile.id, pendingAsKnown(last.result, last.sourceId));
          }
        },
      });
    });
  } catch (error) {
    if (isCancellation(error)) void services.ui.showWarningMessage(`Import of ${folderName} cancelled after ${done} of ${uris.length} documents; those already sent stay imported.`, {});
    throw error;
  }
  if (outcome.stoppedBy && isCancellation(outcome.stoppedBy)) {
    void services.ui.showWarningMessage(`Import of ${folderName} cancelled after ${done} of ${uris.length} documents; those already sent stay imported.`, {});
    return undefined;
  }
  if (outcome.stoppedBy) throw outcome.stoppedBy;
  const results = outcome.results;

  const summary: FolderImportSummary = { total: results.length, imported: [], failed: [] };
  for (const result of results) {
    if (result.ok) summary.imported.push({ file: result.label, sourceId: result.sourceId, spotId: result.result.spotId });
    else summary.failed.push({ file: result.label, reason: result.reason });
  }
  services.log.info('import', `folder ${folderName}: ${summary.imported.length} of ${summary.total} imported to ${label}`, summary.failed);

  if (summary.failed.length === 0) {
    void services.ui.showInformationMessage(`Imported all ${summary.total} spot documents from ${folderName} to ${label}.`);
    return summary;
  }
  const failures = results.filter((result): result is Extract<Core.BulkItemResult, { ok: false }> => !result.ok);
  const picked = await services.ui.showQuickPick(
    failures.map((failure) => ({ label: `$(error) ${failure.label}`, detail: failure.reason, failure })),
    {
      title: `Imported ${summary.imported.length} of ${summary.total} spot documents to ${label}; ${summary.failed.length} failed`,
      placeHolder: 'Pick a failed file to open it at the problem',
      matchOnDetail: true,
    },
  );
  const uri = picked && byLabel.get(picked.failure.label);
  if (picked && uri) {
    const problem = picked.failure.problems?.[0];
    await openAtProblem(uri, problem?.offset ?? 0, problem?.length ?? 0);
  }
  return summary;
}
