// Diagnostics for spot documents while they are written: every problem that makes Import refuse
// the document is an Error here, at its exact range, once. For *.spot.json files the JSON language
// service also checks the generated schema (contributes.jsonValidation), but VS Code shows schema
// problems only as Warnings and offers no way to raise that or to switch the schema off for one
// document; the schema gives them the same words as ours where it can (errorMessage), so the pair
// reads as one problem, and it still places them before this extension has started. Syntax errors
// the JSON language service reports as Errors itself are left to it. Only files and untitled
// documents are checked: the copies that git:, diff and merge editors open would repeat every problem.
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';
import type * as Core from '../../core';
import { loadCore } from '../platform/lazyCore';
import type { Logger } from '../platform/services';
import { affectsMediaCheck, readSettings } from '../platform/settings';
import { followDocuments } from './followDocuments';
import type { MediaFolderEvents } from './mediaFolderEvents';
import { isSpotDocument, mightBeSpotDocument, rangeOf } from './spotDocuments';
import { BUILT_IN_COMMAND } from '../platform/commandIds';
import { DisposableStore } from '../platform/lifecycle';
import type { SpotChecker } from './spotChecker';
import { isCheckedDocument } from '../platform/checkedDocuments';

const CONTEXT_IS_SPOT_DOCUMENT = 'spotImport.isSpotDocument';
const DEBOUNCE_MS = 300;

/** Where the topic definitions come from (the TopicStore), and when they change. */
export interface TopicCatalogSource {
  catalogFor(uri: vscode.Uri): Promise<Core.TopicCatalog>;
  readonly onDidChange: vscode.Event<void>;
}

/**
 * Every refusing problem except the syntax errors the JSON language service already reports as
 * Errors: all of them in JSON; in JSON with Comments the ones no dialect accepts (a comment or a
 * trailing comma is fine there, so ours is the only report of it). Other languages get them all.
 */
function problemsToReport<P extends Core.LocatedProblem>(parsed: { problems: readonly P[] }, languageId: string): P[] {
  return parsed.problems.filter((problem) => {
    if (!problem.syntax) return true;
    if (languageId === 'json') return false;
    return languageId !== 'jsonc' || problem.syntax === 'strict';
  });
}

/** The code of a problem about a file in the document's media folder. */
const MEDIA_PROBLEM_CODE = 'media';

function toDiagnostic(document: vscode.TextDocument, problem: Core.LocatedProblem & { file?: string }): vscode.Diagnostic {
  const severity = problem.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
  const diagnostic = new vscode.Diagnostic(rangeOf(document, problem.offset, problem.length), problem.message, severity);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  // A rule id lets quick fixes find the problem; a media problem says so (and links its file);
  // otherwise the pointer says where it is.
  const code = problem.rule ?? (problem.file !== undefined ? MEDIA_PROBLEM_CODE : problem.pointer);
  if (code) diagnostic.code = code;
  if (problem.file !== undefined) {
    diagnostic.relatedInformation = [
      new vscode.DiagnosticRelatedInformation(
        new vscode.Location(vscode.Uri.file(problem.file), new vscode.Position(0, 0)),
        vscode.l10n.t('the media file or folder'),
      ),
    ];
  }
  return diagnostic;
}

/** `document`: whose folder's accepted types apply. */
function mediaCheckOptions(core: typeof Core, topics: Core.TopicCatalog | undefined, document: vscode.Uri): Core.CheckOptions {
  return { acceptedTypes: readSettings(document).mediaAcceptedTypes ?? core.DEFAULT_ACCEPTED_TYPES, topics };
}

/** Media file hashes remembered by size and modification time: a check while typing reads no file twice. */
const MAX_REMEMBERED_HASHES = 10_000;

function isChecked(document: vscode.TextDocument): boolean {
  return isCheckedDocument(document.uri);
}

export class SpotDiagnostics implements vscode.Disposable, SpotChecker {
  private readonly disposables = new DisposableStore();
  private readonly collection = this.disposables.add(vscode.languages.createDiagnosticCollection('spotImport'));
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly hashes = new Map<string, string>();
  /** Per document, the check started last: an earlier one still running must not publish over it. */
  private readonly latestCheck = new Map<string, number>();
  private checksStarted = 0;

  constructor(
    private readonly log: Logger,
    private readonly topics: TopicCatalogSource,
    private readonly mediaFolders: MediaFolderEvents,
  ) {
    this.disposables.push(
      // A definition changed: which fields are galleries may have too.
      topics.onDidChange(() => this.recheckShown(0)),
      // A media file added, fixed or removed (a first one included) changes what the check says.
      mediaFolders.onChange(() => this.recheckShown(DEBOUNCE_MS)),
      // The media types a gallery accepts decide what the media check reports.
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsMediaCheck(event)) this.recheckShown(0);
      }),
      ...followDocuments({ schedule: (document, delayMs) => this.schedule(document, delayMs), clear: (uri) => this.clear(uri) }, DEBOUNCE_MS),
      vscode.window.onDidChangeActiveTextEditor(() => this.refreshContextKey()),
    );
    for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
    this.refreshContextKey();
  }

  get onDidChangeTopics(): vscode.Event<void> {
    return this.topics.onDidChange;
  }

  /** The topic definitions for a document; none (the base rules alone) when they cannot be read. */
  async topicsFor(uri: vscode.Uri): Promise<Core.TopicCatalog | undefined> {
    try {
      return await this.topics.catalogFor(uri);
    } catch (error) {
      this.log.warn('topics', `could not read the topic definitions for ${uri.path}; checking with the base rules`, error);
      return undefined;
    }
  }

  /** Checks a document now, replacing a pending debounced check; returns every problem found. */
  async checkNow(core: typeof Core, document: vscode.TextDocument): Promise<Core.ParsedSpotText> {
    // The topics first: the text is read after the wait, so what is published is what is there.
    const isLatest = this.startCheck(document.uri);
    const topics = await this.topicsFor(document.uri);
    const parsed = core.parseSpotText(document.getText(), { topics });
    if (isChecked(document) && isSpotDocument(core, document) && isLatest()) {
      const key = document.uri.toString();
      clearTimeout(this.timers.get(key));
      this.timers.delete(key);
      this.publish(document, parsed.problems);
    }
    return parsed;
  }

  /** The media check, published at once (replacing a pending debounced check). */
  async checkMediaNow(core: typeof Core, document: vscode.TextDocument): Promise<Core.SpotMediaCheck> {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    const isLatest = this.startCheck(document.uri);
    const check = await this.mediaCheck(core, document);
    if (isChecked(document) && isLatest()) this.publish(document, check.problems);
    return check;
  }

  private async mediaCheck(core: typeof Core, document: vscode.TextDocument, layout?: Core.MediaLayout): Promise<Core.SpotMediaCheck> {
    const folder = document.uri.fsPath;
    const check = await core.checkSpotMedia(folder, document.getText(), {
      ...mediaCheckOptions(core, await this.topicsFor(document.uri), document.uri),
      ...(layout ? { layout } : {}),
      knownHash: (relativePath, size, mtimeMs) => this.hashes.get(`${folder}\n${relativePath}\n${size}\n${mtimeMs}`),
    });
    if (this.hashes.size > MAX_REMEMBERED_HASHES) this.hashes.clear();
    for (const gallery of check.galleries) {
      for (const file of gallery.files) this.hashes.set(`${folder}\n${file.relativePath}\n${file.size}\n${file.mtimeMs}`, file.sha256);
    }
    return check;
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    void this.disposables.dispose();
  }

  /** Checks again the documents that carry our diagnostics (closed tabs' were cleared). */
  private recheckShown(delayMs: number): void {
    for (const document of vscode.workspace.textDocuments) if (this.collection.has(document.uri)) this.schedule(document, delayMs);
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    if (!isChecked(document)) return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.validate(document).catch((error: unknown) => this.log.warn('diagnostics', `could not check ${document.uri.path}`, error));
      }, delayMs),
    );
  }

  private async validate(document: vscode.TextDocument): Promise<void> {
    if (document.isClosed) return;
    if (!mightBeSpotDocument(document)) {
      if (this.collection.has(document.uri)) this.collection.delete(document.uri);
      return;
    }
    const core = await loadCore();
    if (!isSpotDocument(core, document)) {
      this.collection.delete(document.uri);
      this.mediaFolders.unfollow(document.uri);
      return;
    }
    const isLatest = this.startCheck(document.uri);
    // A document with a media folder beside it is checked with its media (one readdir decides),
    // listed after its folder is followed, so a change made since is in the listing or reported.
    let layout: Core.MediaLayout | undefined;
    if (document.uri.scheme === 'file') {
      await this.mediaFolders.follow(document.uri, core.mediaFolderFor(document.uri.fsPath));
      layout = await core.listSpotMedia(document.uri.fsPath);
    }
    if (layout?.exists) {
      const version = document.version;
      const check = await this.mediaCheck(core, document, layout);
      if (!document.isClosed && document.version === version && isLatest()) this.publish(document, check.problems);
    } else {
      const topics = await this.topicsFor(document.uri);
      if (!document.isClosed && isLatest()) this.publish(document, core.parseSpotText(document.getText(), { topics }).problems);
    }
    if (document === vscode.window.activeTextEditor?.document) this.refreshContextKey();
  }

  /** Marks a check of `uri` started; the function says whether it is still the latest one. */
  private startCheck(uri: vscode.Uri): () => boolean {
    const key = uri.toString();
    const check = ++this.checksStarted;
    this.latestCheck.set(key, check);
    return () => this.latestCheck.get(key) === check;
  }

  /** `problems`: the media check's list when there is one (it drops a rule that media make moot). */
  private publish(document: vscode.TextDocument, problems: readonly Core.SpotProblem[]): void {
    const reported = problemsToReport({ problems }, document.languageId);
    this.collection.set(
      document.uri,
      reported.map((problem) => toDiagnostic(document, problem)),
    );
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.collection.delete(uri);
    this.latestCheck.delete(key);
    this.mediaFolders.unfollow(uri);
  }

  private refreshContextKey(): void {
    this.updateContextKey().catch((error: unknown) => this.log.warn('diagnostics', 'could not update the spot document context key', error));
  }

  /** For menus of documents that are spot documents by content rather than by name. */
  private async updateContextKey(): Promise<void> {
    const document = vscode.window.activeTextEditor?.document;
    let isSpot = false;
    if (document && mightBeSpotDocument(document)) isSpot = isSpotDocument(await loadCore(), document);
    await vscode.commands.executeCommand(BUILT_IN_COMMAND.setContext, CONTEXT_IS_SPOT_DOCUMENT, isSpot);
  }
}
