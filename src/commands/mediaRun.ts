// What Import Spot with Media and Import Folder share when they run the core's media workflow:
// where the journal lives, how the editor writes gallery ids back (an undoable, saved edit), the
// workflow options from the settings, the step lines for the log, and what the Galleries view
// learns afterwards.
import * as path from 'path';
import * as vscode from 'vscode';
import type * as Core from '../core';
import type { CoreModule } from '../platform/lazyCore';
import type { ExtensionServices } from '../platform/services';
import { profileLabel, type KnownGallery, type Profile } from '../platform/domain';
import { readSettings } from '../platform/settings';
import { importKind, rememberImported, type ImportKind } from './importedSources';
import { COMMAND } from '../platform/commandIds';

/**
 * `<workspace folder>/.spot-import`; outside every workspace folder, next to the document (or in
 * the imported folder itself).
 */
export function journalDirFor(core: CoreModule, uri: vscode.Uri, isFolder = false): string {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  return core.defaultJournalDir(folder?.uri.scheme === 'file' ? folder.uri.fsPath : isFolder ? uri.fsPath : path.dirname(uri.fsPath));
}

/**
 * The editor's writer: a document open in VS Code gets the change as a WorkspaceEdit (undoable)
 * and is saved; one that is not open is written on disk by the core's atomic writer. Either way
 * nothing is written when the text is no longer what the workflow read ('changed').
 */
export function editorSpotWriter(core: CoreModule): Core.SpotWriter {
  return async (request) => {
    const uri = vscode.Uri.file(request.path);
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    if (!open) return core.writeSpotFileInPlace(request);
    if (open.getText() !== request.originalText) return 'changed';
    const edit = new vscode.WorkspaceEdit();
    for (const change of request.edits) {
      edit.replace(uri, new vscode.Range(open.positionAt(change.offset), open.positionAt(change.offset + change.length)), change.content);
    }
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code refused the edit');
    if (!(await open.save())) throw new Error('the document could not be saved');
    return 'written';
  };
}

export interface MediaRunSetup {
  client: Core.ServiceClient;
  clientId: string;
  journalDir: string;
  signal: AbortSignal;
  onProgress?: (event: Core.WorkflowProgress) => void;
  /** keepInProgress chosen for this run (else the setting). */
  keepInProgress?: boolean;
  /** The topic definitions in effect (topicCatalogFor). */
  topics?: Core.TopicCatalog;
  /** The document or folder imported: whose folder's settings apply. */
  settingsFor: vscode.Uri;
}

/** Options for runMediaWorkflow from the settings; every step goes to the log. */
export function workflowOptions(services: ExtensionServices, core: CoreModule, setup: MediaRunSetup): Core.MediaWorkflowOptions {
  const settings = readSettings(setup.settingsFor);
  return {
    client: setup.client,
    clientId: setup.clientId,
    journalDir: setup.journalDir,
    concurrency: settings.bulkConcurrency,
    finalState: setup.keepInProgress ?? settings.mediaKeepInProgress ? 2 : 1,
    setOrder: settings.mediaSetOrder,
    acceptedTypes: settings.mediaAcceptedTypes ?? core.DEFAULT_ACCEPTED_TYPES,
    topics: setup.topics,
    describePath: (path) => vscode.workspace.asRelativePath(path, false),
    writeBack: settings.mediaWriteBack ? editorSpotWriter(core) : false,
    signal: setup.signal,
    onProgress: setup.onProgress,
    onStep: (step) => services.log.info('media', `${step.label}${step.sourceId ? ` "${step.sourceId}"` : ''} ${step.step}: ${step.message}`),
  };
}

/** The client id keys the journal; the sandbox's credentials are stored once it has started. */
export async function clientIdOf(services: ExtensionServices, profile: Profile): Promise<string> {
  return (await services.credentials.get(profile.id))?.clientId ?? profile.id;
}

/** Whether each outcome's spot was new to this profile, asked before the imports are recorded. */
export function kindsOf(services: ExtensionServices, profile: Profile, spots: readonly Core.SpotOutcome[]): Map<Core.SpotOutcome, ImportKind> {
  const kinds = new Map<Core.SpotOutcome, ImportKind>();
  for (const spot of spots) if (spot.sourceId !== undefined) kinds.set(spot, importKind(services, profile.id, spot.sourceId));
  return kinds;
}

/** Did the service take an import of this spot in this run (or an earlier one the journal knows)? */
export function wasImported(spot: Core.SpotOutcome): boolean {
  return spot.spotId !== undefined && spot.imported !== 'none';
}

/**
 * After a run: the imported source ids are remembered (new/updated), every gallery the run knows
 * goes into the gallery store (pending only while it holds no media), and the Galleries view
 * reads them again so the new media show at once. Failures here are logged: the run happened.
 */
export async function recordRun(services: ExtensionServices, profile: Profile, spots: readonly Core.SpotOutcome[], uriOf: (spot: Core.SpotOutcome) => string): Promise<void> {
  const imported = spots.filter(wasImported);
  await rememberImported(services, profile.id, imported.flatMap((spot) => (spot.sourceId ? [spot.sourceId] : [])));
  const known: KnownGallery[] = imported.flatMap((spot) =>
    spot.galleries.flatMap((gallery) => gallery.galleryId === undefined ? [] : [{
      galleryId: gallery.galleryId,
      field: gallery.field,
      spot: { spotId: spot.spotId!, sourceId: spot.sourceId ?? spot.label, documentUri: uriOf(spot) },
      pending: gallery.uploaded + gallery.resolved + gallery.skipped === 0,
    }]));
  if (known.length === 0) return;
  try {
    await services.galleries.add(profile.id, known);
    for (const gallery of known) if (!gallery.pending) await services.galleries.markUploaded(profile.id, gallery.galleryId);
  } catch (error) {
    services.log.warn('media', `could not remember ${known.length} galleries for ${profileLabel(profile)}`, error);
  }
  await vscode.commands.executeCommand(COMMAND.refreshGalleries).then(undefined, (error: unknown) => services.log.warn('media', 'could not refresh the Galleries view', error));
}

/** Media in a gallery after the run: sent now, found from an interrupted run, or already there. */
export function mediaIn(gallery: Core.GalleryOutcome): number {
  return gallery.uploaded + gallery.resolved + gallery.skipped;
}

/** "fld_1_3 → gallery 12 (3 media: 2 uploaded, 1 already there)" */
export function describeGallery(gallery: Core.GalleryOutcome): string {
  const parts = [
    ...(gallery.uploaded + gallery.resolved > 0 ? [`${gallery.uploaded + gallery.resolved} uploaded`] : []),
    ...(gallery.skipped > 0 ? [`${gallery.skipped} already there`] : []),
    ...(gallery.failed.length > 0 ? [`${gallery.failed.length} failed`] : []),
  ];
  const where = gallery.galleryId === undefined ? gallery.field : `${gallery.field} → gallery ${gallery.galleryId}`;
  return `${where} (${mediaIn(gallery)} of ${gallery.files} media${parts.length > 0 ? `: ${parts.join(', ')}` : ''})`;
}

/** "spot 12 (new) · 3 uploaded · 1 already there" for a summary line. */
export function describeSpotCounts(spot: Core.SpotOutcome, kind: ImportKind | undefined): string {
  const uploaded = spot.galleries.reduce((sum, gallery) => sum + gallery.uploaded + gallery.resolved, 0);
  const skipped = spot.galleries.reduce((sum, gallery) => sum + gallery.skipped, 0);
  const failed = spot.galleries.reduce((sum, gallery) => sum + gallery.failed.length, 0);
  return [
    spot.spotId !== undefined ? `${kind === 'updated' ? 'updated' : kind === 'new' ? 'new' : ''} spot ${spot.spotId}`.trim() : 'not imported',
    ...(spot.withMedia ? [`${uploaded} media uploaded`, `${skipped} already there`] : []),
    ...(failed > 0 ? [`${failed} media failed`] : []),
  ].join(' · ');
}

/** "A second run will: upload 2 media; import with the final state" */
export function describeRemaining(spot: Core.SpotOutcome): string {
  return spot.remaining.length > 0 ? `A second run will: ${spot.remaining.join('; ')}.` : '';
}

/** The media folder beside a document, cheaply: one readdir, no file read. 0 without one. */
export async function mediaCountOf(core: CoreModule, uri: vscode.Uri): Promise<number> {
  if (uri.scheme !== 'file') return 0;
  return core.mediaCount(await core.listSpotMedia(uri.fsPath));
}
