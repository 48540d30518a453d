// What the editor's three imports (Import Spot, Import Spot with Media, Import Folder) share
// when they run the core's import engine: where the journal lives, how the editor writes gallery
// ids back (an undoable, saved edit), the engine's options from the settings and the profile, the
// step lines for the log, and what the Galleries view learns as the spots land.
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type * as Core from '../../core';
import type { CoreModule } from '../platform/lazyCore';
import type { ExtensionServices } from '../platform/services';
import { profileLabel, type KnownGallery, type Profile } from '../platform/domain';
import { readSettings } from '../platform/settings';
import type { CommandServices } from '../commands/commandTable';
import { BUILT_IN_COMMAND, COMMAND } from '../platform/commandIds';
import { documentOffset } from '../documents/spotDocuments';
import { openAtProblem } from '../documents/spotTarget';
import { ActionableError } from '../platform/errors';

/**
 * `<workspace folder>/.spot-import`; outside every workspace folder, next to the document (or in
 * the imported folder itself); for a document that is not a file (untitled), in the extension's
 * own storage.
 */
function journalDirFor(services: ExtensionServices, core: CoreModule, uri: vscode.Uri, isFolder = false): string {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (folder?.uri.scheme === 'file') return core.defaultJournalDir(folder.uri.fsPath);
  if (uri.scheme === 'file') return core.defaultJournalDir(isFolder ? uri.fsPath : path.dirname(uri.fsPath));
  const storage = services.context.globalStorageUri;
  return core.defaultJournalDir(storage.scheme === 'file' ? storage.fsPath : path.join(os.tmpdir(), 'spot-import'));
}

/**
 * The editor's writer: a document open in VS Code gets the change as a WorkspaceEdit (undoable)
 * and is saved; one that is not open is written on disk by the core's atomic writer. Either way
 * nothing is written when the text is no longer what the engine read ('changed').
 */
function editorSpotWriter(core: CoreModule): Core.SpotWriter {
  return async (request) => {
    const uri = vscode.Uri.file(request.path);
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    if (!open) return core.writeSpotFileInPlace(request);
    if (open.getText() !== request.originalText) return 'changed';
    const edit = new vscode.WorkspaceEdit();
    for (const change of request.edits) {
      edit.replace(uri, new vscode.Range(open.positionAt(change.offset), open.positionAt(change.offset + change.length)), change.content);
    }
    // The engine puts these words into the reason it gives for a failed write-back.
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(vscode.l10n.t('VS Code refused the edit'));
    if (!(await open.save())) throw new Error(vscode.l10n.t('the document could not be saved'));
    return 'written';
  };
}

export interface RunSetup {
  profile: Profile;
  client: Core.ServiceClient;
  /** The document or folder imported: whose folder's settings, topic definitions and journal apply. */
  target: vscode.Uri;
  /** The target is a folder (its journal is inside it when it is outside every workspace folder). */
  isFolder?: boolean;
  signal: AbortSignal;
  onProgress?: (event: Core.ImportProgress) => void;
  /** keepInProgress chosen for this run (else the setting). */
  keepInProgress?: boolean;
}

/**
 * The engine's options: the settings of the target's folder, the profile's topic and journal,
 * the workspace's topic definitions; every step goes to the log. A caller changes what differs
 * for it (Import Spot sends the document even when the journal knows it).
 */
export async function engineOptions(services: CommandServices, core: CoreModule, setup: RunSetup): Promise<Core.ImportRunOptions> {
  const settings = readSettings(setup.target);
  const { profile } = setup;
  return {
    client: setup.client,
    journal: {
      accounts: await services.journalAccounts(),
      dir: journalDirFor(services, core, setup.target, setup.isFolder),
      account: core.journalAccountOf(setup.client.apiRoot, await clientIdOf(services, profile)),
    },
    concurrency: settings.bulkConcurrency,
    finalState: (setup.keepInProgress ?? settings.mediaKeepInProgress) ? 2 : 1,
    setOrder: settings.mediaSetOrder,
    acceptedTypes: settings.mediaAcceptedTypes ?? core.DEFAULT_ACCEPTED_TYPES,
    topics: await services.checker.topicsFor(setup.target),
    ...(profile.topicId !== undefined
      ? {
          topic: {
            topicId: profile.topicId,
            owner: vscode.l10n.t({
              message: 'profile "{0}"',
              args: [profileLabel(profile)],
              comment: ['names who imports into a topic, as in: topic_id is 12, but profile "Field team" imports into topic 37'],
            }),
          },
        }
      : {}),
    describePath: (file) => vscode.workspace.asRelativePath(file, false),
    writeBack: settings.mediaWriteBack ? editorSpotWriter(core) : false,
    signal: setup.signal,
    onProgress: setup.onProgress,
    onStep: (step) => services.log.info('media', `${step.label}${step.sourceId ? ` "${step.sourceId}"` : ''} ${step.step}: ${step.message}`),
  };
}

/** The client id keys the journal; the sandbox's credentials are stored once it has started. */
async function clientIdOf(services: ExtensionServices, profile: Profile): Promise<string> {
  return (await services.credentials.get(profile.id))?.clientId ?? profile.id;
}

/** Did the service take an import of this spot (in this run or an earlier one the journal knows)? */
export function wasImported(spot: Core.SpotOutcome): boolean {
  return spot.spotId !== undefined && spot.imported !== 'none';
}

/** One globalState write per 25 galleries or per second, whichever comes first. */
export const DEFAULT_RECORD_EVERY = { galleries: 25, ms: 1000 };

/**
 * Tells the Galleries view about the galleries of the spots as they land: in batches (a
 * globalState write per gallery would be one per file), and a last flush when the run ends, so
 * a window closed or reloaded during a long run keeps them. A gallery is pending while it holds no
 * media. The imports happened whatever the store does, so a failed write is logged.
 */
export class GalleryRecorder {
  private waiting: KnownGallery[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly services: ExtensionServices,
    private readonly profile: Profile,
    /** The document a spot came from (Mark Spot Active opens it); undefined for a row of a table. */
    private readonly uriOf: (spot: Core.SpotOutcome) => string | undefined,
    private readonly every = DEFAULT_RECORD_EVERY,
  ) {}

  /** A spot the engine settled. */
  add(spot: Core.SpotOutcome): void {
    if (!wasImported(spot)) return;
    const galleries = spot.galleries.flatMap((gallery): KnownGallery[] =>
      gallery.galleryId === undefined
        ? []
        : [
            {
              galleryId: gallery.galleryId,
              field: gallery.field,
              spot: { spotId: spot.spotId!, sourceId: spot.sourceId ?? spot.label, ...documentOf(this.uriOf(spot)) },
              pending: gallery.uploaded + gallery.resolved + gallery.skipped === 0,
            },
          ],
    );
    if (galleries.length === 0) return;
    this.waiting.push(...galleries);
    if (this.waiting.length >= this.every.galleries) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.every.ms);
  }

  /** Writes what waits; resolves once every write asked for so far is done (never rejects). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length > 0) this.writes = this.writes.then(() => this.write(batch));
    return this.writes;
  }

  /** The last flush, and the Galleries view reads the galleries again so new media show at once. */
  async finish(): Promise<void> {
    await this.flush();
    await vscode.commands
      .executeCommand(COMMAND.refreshGalleries)
      .then(undefined, (error: unknown) => this.services.log.warn('media', 'could not refresh the Galleries view', error));
  }

  private async write(batch: KnownGallery[]): Promise<void> {
    const { galleries, log } = this.services;
    try {
      await galleries.add(this.profile.id, batch);
      for (const gallery of batch) if (!gallery.pending) await galleries.markUploaded(this.profile.id, gallery.galleryId);
      log.trace('import', `remembered ${batch.length} galleries for ${profileLabel(this.profile)}`);
    } catch (error) {
      log.warn('import', `could not remember ${batch.length} galleries for ${profileLabel(this.profile)}`, error);
    }
  }
}

function documentOf(uri: string | undefined): { documentUri?: string } {
  return uri === undefined ? {} : { documentUri: uri };
}

/** Media in a gallery after the run: sent now, found from an interrupted run, or already there. */
function mediaIn(gallery: Core.GalleryOutcome): number {
  return gallery.uploaded + gallery.resolved + gallery.skipped;
}

/** "fld_1_3 → gallery 12 (3 of 3 media: 2 uploaded, 1 already there)" */
export function describeGallery(gallery: Core.GalleryOutcome): string {
  const parts = [
    ...(gallery.uploaded + gallery.resolved > 0 ? [vscode.l10n.t('{0} uploaded', gallery.uploaded + gallery.resolved)] : []),
    ...(gallery.skipped > 0 ? [vscode.l10n.t('{0} already there', gallery.skipped)] : []),
    ...(gallery.failed.length > 0 ? [vscode.l10n.t('{0} failed', gallery.failed.length)] : []),
  ];
  const where = gallery.galleryId === undefined ? gallery.field : vscode.l10n.t('{0} → gallery {1}', gallery.field, gallery.galleryId);
  return parts.length > 0
    ? vscode.l10n.t('{0} ({1} of {2} media: {3})', where, mediaIn(gallery), gallery.files, parts.join(', '))
    : vscode.l10n.t('{0} ({1} of {2} media)', where, mediaIn(gallery), gallery.files);
}

/** "new spot 12 · 3 media uploaded · 1 already there" for a summary line. */
export function describeSpotCounts(spot: Core.SpotOutcome): string {
  const uploaded = spot.galleries.reduce((sum, gallery) => sum + gallery.uploaded + gallery.resolved, 0);
  const skipped = spot.galleries.reduce((sum, gallery) => sum + gallery.skipped, 0);
  const failed = spot.galleries.reduce((sum, gallery) => sum + gallery.failed.length, 0);
  const spotWords =
    spot.spotId === undefined
      ? vscode.l10n.t('not imported')
      : spot.change === 'new'
        ? vscode.l10n.t('new spot {0}', spot.spotId)
        : spot.change !== undefined
          ? vscode.l10n.t('updated spot {0}', spot.spotId)
          : vscode.l10n.t('spot {0}', spot.spotId);
  return [
    spotWords,
    ...(spot.withMedia ? [vscode.l10n.t('{0} media uploaded', uploaded), vscode.l10n.t('{0} already there', skipped)] : []),
    ...(failed > 0 ? [vscode.l10n.t('{0} media failed', failed)] : []),
  ].join(' · ');
}

/** "A second run will: upload 2 media; import with the final state." */
export function describeRemaining(spot: Core.SpotOutcome): string {
  return spot.remaining.length > 0 ? vscode.l10n.t('A second run will: {0}.', spot.remaining.join('; ')) : '';
}

/**
 * "Imported "x" as new spot 12 to Sandbox" / "Updated spot 12 ("x") on Sandbox", with the spot's
 * galleries when given ("… with fld_1 → gallery 3 (2 of 2 media)"): the first sentence of every
 * result message, without its full stop. A spot the journal knew before the run (updated, or
 * unchanged: nothing needed sending) is an update. `spotId` undefined: a spot the service gave no
 * id (there is none to name).
 */
export function describeImported(spot: Pick<Core.SpotOutcome, 'change'>, sourceId: string, spotId: number | undefined, label: string, galleries = ''): string {
  // One whole sentence per case: the words around the names go in another order in other languages.
  if (spotId === undefined) {
    if (spot.change === 'new')
      return galleries ? vscode.l10n.t('Imported "{0}" to {1} with {2}', sourceId, label, galleries) : vscode.l10n.t('Imported "{0}" to {1}', sourceId, label);
    return galleries ? vscode.l10n.t('Imported "{0}" on {1} with {2}', sourceId, label, galleries) : vscode.l10n.t('Imported "{0}" on {1}', sourceId, label);
  }
  if (spot.change === 'new') {
    return galleries
      ? vscode.l10n.t('Imported "{0}" as new spot {1} to {2} with {3}', sourceId, spotId, label, galleries)
      : vscode.l10n.t('Imported "{0}" as new spot {1} to {2}', sourceId, spotId, label);
  }
  if (spot.change !== undefined) {
    return galleries
      ? vscode.l10n.t('Updated spot {0} ("{1}") on {2} with {3}', spotId, sourceId, label, galleries)
      : vscode.l10n.t('Updated spot {0} ("{1}") on {2}', spotId, sourceId, label);
  }
  return galleries
    ? vscode.l10n.t('Imported "{0}" as spot {1} on {2} with {3}', sourceId, spotId, label, galleries)
    : vscode.l10n.t('Imported "{0}" as spot {1} on {2}', sourceId, spotId, label);
}

/**
 * A document an import will not send: the log says why, the document opens at the first error,
 * and the error to throw says what is wrong. Problems the Problems panel shows offer it; a topic
 * the profile does not import into offers another profile.
 */
export async function refusal(
  services: CommandServices,
  core: CoreModule,
  document: vscode.TextDocument,
  name: string,
  problems: readonly (Core.LocatedProblem & { file?: string })[],
): Promise<ActionableError> {
  const errors = problems.filter((problem) => problem.severity === 'error');
  const first = errors[0] ?? problems[0];
  services.log.info(
    'import',
    `${name} not sent: ${problems.length} problem(s)`,
    problems.map((problem) => `${problem.file ?? (problem.pointer || '/')}: ${problem.message}`),
  );
  if (first) await openAtProblem(document.uri, documentOffset(document, first.offset), first.length);
  const otherTopic = errors.some((problem) => problem.rule === core.SPOT_RULES.accountTopic);
  return new ActionableError(vscode.l10n.t('Not imported, nothing was sent: {0}: {1}', name, core.describeProblems(errors)), [
    otherTopic
      ? { title: vscode.l10n.t('Switch Profile…'), command: COMMAND.switchProfile }
      : { title: vscode.l10n.t('Show Problems'), command: BUILT_IN_COMMAND.showProblems },
  ]);
}
