// Import Folder when a document in the folder has a media folder beside it: every document goes
// through the core's media workflow (documents without media take the plain import inside it), so
// one run imports the spots, uploads what their galleries lack and orders them, resumably. The
// summary lists each spot: imported (new or updated), media uploaded, already there, or failed
// with the reason; picking one opens its file (at the problem, for a failure).
import * as vscode from 'vscode';
import type * as Core from '../core';
import { describeProblems } from '../core/documents/problemSummary';
import { topicCatalogFor } from '../documents/spotDiagnostics';
import { isCancellation } from '../platform/cancellation';
import { isAuthenticationError } from '../platform/errors';
import type { ExtensionServices } from '../platform/services';
import type { Profile } from '../platform/domain';
import type { ImportKind } from './importedSources';
import { clientIdOf, describeRemaining, describeSpotCounts, journalDirFor, kindsOf, recordRun, wasImported, workflowOptions } from './mediaRun';
import { openAtProblem } from './spotTarget';

export interface MediaFolderRun {
  outcome: Core.MediaWorkflowOutcome;
  /** New or updated, per outcome (known before the run was recorded). */
  kinds: Map<Core.SpotOutcome, ImportKind>;
}

export interface MediaFolderSetup {
  folder: vscode.Uri;
  uris: vscode.Uri[];
  profile: Profile;
  client: Core.ServiceClient;
  signal: AbortSignal;
  progress: vscode.Progress<{ message?: string; increment?: number }>;
  onProgress?: (event: Core.WorkflowProgress) => void;
}

/** True when any of the documents has a media folder beside it (one readdir each, stops at the first). */
export async function anyHasMedia(core: typeof Core, uris: readonly vscode.Uri[], signal: AbortSignal): Promise<boolean> {
  for (const uri of uris) {
    signal.throwIfAborted();
    if ((await core.listSpotMedia(uri.fsPath)).exists) return true;
  }
  return false;
}

export async function runMediaFolder(services: ExtensionServices, core: typeof Core, setup: MediaFolderSetup): Promise<MediaFolderRun> {
  const { progress, profile } = setup;
  const inputs: Core.SpotInput[] = setup.uris.map((uri) => ({ path: uri.fsPath, label: vscode.workspace.asRelativePath(uri, false) }));
  const total = inputs.length;
  let current = '';
  progress.report({ message: `0 of ${total}` });
  const options = workflowOptions(services, core, {
    client: setup.client,
    clientId: await clientIdOf(services, profile),
    journalDir: journalDirFor(core, setup.folder, true),
    topics: await topicCatalogFor(setup.folder),
    settingsFor: setup.folder,
    signal: setup.signal,
    onProgress: (event) => {
      if (event.kind === 'spot') {
        current = `spot ${event.index} of ${event.total}: ${event.label}`;
        progress.report({ message: current });
      } else if (event.kind === 'bytes') {
        progress.report({ message: `${current} — ${event.file} ${Math.round(event.sentBytes / 1024)} of ${Math.round(event.totalBytes / 1024)} KB` });
      } else {
        progress.report({ increment: 100 / event.total });
      }
      setup.onProgress?.(event);
    },
  });
  services.log.info('media', `folder: ${total} documents with their media (journal ${options.journalDir})`);
  const outcome = await core.runMediaWorkflow(inputs, options);
  const kinds = kindsOf(services, profile, outcome.spots.filter(wasImported));
  const uriOf = new Map(setup.uris.map((uri) => [uri.fsPath, uri.toString()]));
  await recordRun(services, profile, outcome.spots, (spot) => uriOf.get(spot.path) ?? vscode.Uri.file(spot.path).toString());
  return { outcome, kinds };
}

/** Did the run stop early, and why, in the words Import Folder's summary uses. */
export function stoppedOf(outcome: Core.MediaWorkflowOutcome): 'cancelled' | 'credentialsRejected' | undefined {
  if (!outcome.stoppedBy) return undefined;
  if (isAuthenticationError(outcome.stoppedBy)) return 'credentialsRejected';
  return isCancellation(outcome.stoppedBy) ? 'cancelled' : undefined;
}

/** Why a spot is not done, for the summary. */
export function reasonOf(spot: Core.SpotOutcome): string {
  if (spot.status === 'invalid') return `${describeProblems(spot.problems.filter((problem) => problem.severity === 'error'))} (nothing was sent)`;
  const remaining = describeRemaining(spot);
  return `${spot.reason ?? spot.status}${remaining ? ` ${remaining}` : ''}`;
}

/** Every spot of the run in a pick: failures first; picking one opens its file. */
export async function pickSpot(services: ExtensionServices, title: string, run: MediaFolderRun): Promise<void> {
  const order = { failed: 0, invalid: 0, cancelled: 1, 'not-started': 2, done: 3 } as const;
  const spots = [...run.outcome.spots].sort((a, b) => order[a.status] - order[b.status]);
  const picked = await services.ui.showQuickPick(
    spots.map((spot) => ({
      label: `${spot.status === 'done' ? '$(check)' : spot.status === 'failed' || spot.status === 'invalid' ? '$(error)' : '$(circle-slash)'} ${spot.label}`,
      description: describeSpotCounts(spot, run.kinds.get(spot)),
      detail: spot.status === 'done' ? undefined : reasonOf(spot),
      spot,
    })),
    { title, placeHolder: 'Pick a spot to open its document (a failed one at the problem)', matchOnDescription: true, matchOnDetail: true },
  );
  if (!picked) return;
  const problem = picked.spot.problems.find((candidate) => candidate.severity === 'error') ?? picked.spot.problems[0];
  await openAtProblem(vscode.Uri.file(picked.spot.path), problem?.offset ?? 0, problem?.length ?? 0);
}
