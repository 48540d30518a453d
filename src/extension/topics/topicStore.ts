// The topic definitions of the workspace: per workspace folder, the *.topic.json files of its
// topics folder (spot-topics/ at its root, or what spotImport.topicsFolder names), read on first
// use and again whenever one of them changes on disk or in an editor. Problems of the files
// themselves are shown on them; the JSON language service already reports their syntax and
// schema problems (contributes.jsonValidation), so only the rest is added here, and a file that
// is left out says so.
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';
import { DisposableStore } from '../platform/lifecycle';
import type * as Core from '../../core';
import { loadCore } from '../platform/lazyCore';
import type { Logger } from '../platform/services';
import { SETTINGS_SECTION } from '../platform/settings';

const TOPICS_FOLDER_SETTING = 'topicsFolder';
const DEFAULT_FOLDER = 'spot-topics';
const TOPIC_FILE = /\.topic\.json$/i;
const RELOAD_DELAY_MS = 200;
/** Reported by the JSON language service from the schema; not repeated here. */
const LEFT_TO_JSON_SERVICE = new Set<string>(['topicDefinition.syntax', 'topicDefinition.schema']);

interface FolderTopics {
  workspaceFolder: vscode.WorkspaceFolder;
  topicsUri: vscode.Uri;
  /** The latest read, chained so reads never overlap. undefined until first use. */
  loading?: Promise<Core.TopicSet>;
  /** What the latest finished read found. */
  current?: Core.TopicCatalog;
  reported: vscode.Uri[];
  timer?: NodeJS.Timeout;
  watcher: vscode.Disposable;
}

export class TopicStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the definitions of a folder were read again. */
  readonly onDidChange = this.changed.event;
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('spotImport.topicDefinitions');
  /**
   * Per workspace folder, built on first use (a spot document's check, a definition file opened):
   * reading the setting and starting a watcher per folder cost activation most of its time, and
   * most JSON files that activate the extension need neither.
   */
  private folders?: FolderTopics[];
  /** After dispose nothing is read or watched again (an import still in flight may ask). */
  private disposed = false;
  /** What it listens to, disposed with it (newest first). */
  private readonly disposables = new DisposableStore();

  constructor(private readonly log: Logger) {
    this.disposables.push(
      this.changed,
      this.diagnostics,
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        if (this.folders) this.rebuild();
      }),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (this.folders && event.affectsConfiguration(`${SETTINGS_SECTION}.${TOPICS_FOLDER_SETTING}`)) this.rebuild();
      }),
      // A definition being edited is used as it is typed; closing it unsaved goes back to the file.
      vscode.workspace.onDidOpenTextDocument((document) => this.touched(document.uri, 0)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.touched(event.document.uri, RELOAD_DELAY_MS);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.touched(document.uri, 0)),
    );
    // Open definition files show their problems without waiting for a spot document.
    for (const document of vscode.workspace.textDocuments) this.touched(document.uri, 0);
  }

  /** The definitions that apply to a document: those of its workspace folder (else the first one's). */
  async catalogFor(uri: vscode.Uri): Promise<Core.TopicCatalog> {
    const entry = this.entryFor(uri);
    if (!entry) return new Map();
    return (await this.ensureLoaded(entry)).catalog;
  }

  /**
   * A topic's definition as last read, from the first workspace folder that defines it, without
   * waiting (the local sandbox asks at each import, and cannot know the document's folder); the
   * first call starts reading them.
   */
  latestDefinition(topicId: number): Core.TopicDefinition | undefined {
    for (const entry of this.entries()) {
      if (!entry.loading)
        this.ensureLoaded(entry).catch((error: unknown) => this.log.warn('topics', `could not read the topic definitions in ${entry.topicsUri.fsPath}`, error));
      const definition = entry.current?.get(topicId);
      if (definition) return definition;
    }
    return undefined;
  }

  /** Where the definitions for a document live (they may not exist yet). */
  topicsFolderFor(uri: vscode.Uri): vscode.Uri | undefined {
    return this.entryFor(uri)?.topicsUri;
  }

  /** Reads the folder of `uri`'s definitions again now, and waits for it. */
  async reloadFor(uri: vscode.Uri): Promise<void> {
    const entry = this.entryFor(uri);
    if (entry) await this.reload(entry);
  }

  dispose(): void {
    this.disposed = true;
    for (const entry of this.folders ?? []) this.dropEntry(entry);
    this.folders = [];
    void this.disposables.dispose();
  }

  private entryFor(uri: vscode.Uri): FolderTopics | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const entries = this.entries();
    return entries.find((entry) => entry.workspaceFolder.uri.toString() === folder?.uri.toString()) ?? entries[0];
  }

  private entries(): FolderTopics[] {
    if (this.disposed) return [];
    if (!this.folders) {
      this.folders = this.createEntries();
      this.scheduleOpenDefinitions();
    }
    return this.folders;
  }

  private rebuild(): void {
    const wasLoaded = this.entries().some((entry) => entry.loading);
    for (const entry of this.entries()) this.dropEntry(entry);
    this.folders = this.createEntries();
    this.scheduleOpenDefinitions();
    if (wasLoaded) {
      for (const entry of this.folders) this.schedule(entry, 0);
    }
  }

  private scheduleOpenDefinitions(): void {
    for (const document of vscode.workspace.textDocuments) this.touched(document.uri, 0);
  }

  private createEntries(): FolderTopics[] {
    return (vscode.workspace.workspaceFolders ?? []).map((workspaceFolder) => {
      const topicsUri = topicsFolderOf(workspaceFolder);
      const entry: FolderTopics = { workspaceFolder, topicsUri, reported: [], watcher: new vscode.Disposable(() => undefined) };
      const watcher = vscode.workspace.createFileSystemWatcher(watchPattern(workspaceFolder, topicsUri));
      const onFile = () => {
        if (entry.loading) this.schedule(entry, RELOAD_DELAY_MS);
      };
      entry.watcher = vscode.Disposable.from(watcher, watcher.onDidCreate(onFile), watcher.onDidChange(onFile), watcher.onDidDelete(onFile));
      return entry;
    });
  }

  private dropEntry(entry: FolderTopics): void {
    clearTimeout(entry.timer);
    entry.watcher.dispose();
    for (const uri of entry.reported) this.diagnostics.delete(uri);
  }

  /** A document that may be a definition file changed, opened or closed. */
  private touched(uri: vscode.Uri, delayMs: number): void {
    if (!TOPIC_FILE.test(uri.path)) return;
    const parent = vscode.Uri.joinPath(uri, '..').toString();
    for (const entry of this.entries()) {
      if (entry.topicsUri.toString() === parent) this.schedule(entry, delayMs);
    }
  }

  private schedule(entry: FolderTopics, delayMs: number): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      this.reload(entry).catch((error: unknown) => this.log.warn('topics', `could not read the topic definitions in ${entry.topicsUri.fsPath}`, error));
    }, delayMs);
  }

  private ensureLoaded(entry: FolderTopics): Promise<Core.TopicSet> {
    return entry.loading ?? this.reload(entry);
  }

  private reload(entry: FolderTopics): Promise<Core.TopicSet> {
    const previous = entry.loading ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => this.read(entry));
    entry.loading = next;
    return next;
  }

  private async read(entry: FolderTopics): Promise<Core.TopicSet> {
    const core = await loadCore();
    const files = await readDefinitionFiles(core, entry.topicsUri);
    const set = core.collectTopicDefinitions(files);
    if (this.folders?.includes(entry)) {
      entry.current = set.catalog;
      this.publish(core, entry, set, files);
      this.log.info('topics', `${set.catalog.size} topic definition(s) in use from ${entry.topicsUri.fsPath} (${files.length} file(s))`);
      this.changed.fire();
    }
    return set;
  }

  private publish(core: typeof Core, entry: FolderTopics, set: Core.TopicSet, files: Core.TopicFileInput[]): void {
    for (const uri of entry.reported) this.diagnostics.delete(uri);
    entry.reported = [];
    for (const report of set.files) {
      const uri = vscode.Uri.parse(report.path);
      const file = files.find((candidate) => candidate.path === report.path);
      const text = file && 'text' in file ? file.text : '';
      const shown = report.problems.filter((problem) => !LEFT_TO_JSON_SERVICE.has(problem.rule));
      const diagnostics = shown.map((problem) => toDiagnostic(text, problem.offset, problem.length, problem.message, problem.rule));
      if (!report.definition && shown.length === 0 && report.problems.length > 0) {
        const summary = vscode.l10n.t('This topic definition is not in use until its problems are fixed: {0}', core.describeProblems(report.problems));
        diagnostics.push(toDiagnostic(text, 0, 1, summary, report.problems[0].rule));
      }
      if (diagnostics.length > 0) {
        this.diagnostics.set(uri, diagnostics);
        entry.reported.push(uri);
      }
    }
  }
}

/** The setting, for one workspace folder: relative to it, or absolute; empty means spot-topics/. */
function topicsFolderOf(folder: vscode.WorkspaceFolder): vscode.Uri {
  const configured = vscode.workspace.getConfiguration(SETTINGS_SECTION, folder.uri).get<string>(TOPICS_FOLDER_SETTING, '').trim();
  if (!configured) return vscode.Uri.joinPath(folder.uri, DEFAULT_FOLDER);
  if (/^([a-zA-Z]:[\\/]|[\\/])/.test(configured) && folder.uri.scheme === 'file') return vscode.Uri.file(configured);
  return vscode.Uri.joinPath(folder.uri, configured);
}

/** Inside the workspace folder, a pattern relative to it (served by the workspace watcher even before the folder exists). */
function watchPattern(folder: vscode.WorkspaceFolder, topicsUri: vscode.Uri): vscode.RelativePattern {
  const root = folder.uri.toString().replace(/\/$/, '');
  const target = topicsUri.toString();
  if (target.startsWith(`${root}/`)) return new vscode.RelativePattern(folder, `${decodeURIComponent(target.slice(root.length + 1))}/*.topic.json`);
  return new vscode.RelativePattern(topicsUri, '*.topic.json');
}

/**
 * The definition files of a folder, with the text of an open editor where there is one; the others
 * read as the command line reads them (strict UTF-8, a size cap), or each a problem of its own.
 */
async function readDefinitionFiles(core: typeof Core, folder: vscode.Uri): Promise<Core.TopicFileInput[]> {
  let entries: Array<[string, vscode.FileType]>;
  try {
    entries = await vscode.workspace.fs.readDirectory(folder);
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return [];
    throw error;
  }
  const names = entries.filter(([name, type]) => (type & vscode.FileType.File) !== 0 && TOPIC_FILE.test(name)).map(([name]) => name);
  return Promise.all(
    names.map(async (name) => {
      const uri = vscode.Uri.joinPath(folder, name);
      const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
      if (open) return { path: uri.toString(), text: open.getText() };
      try {
        core.refuseDefinitionSize((await vscode.workspace.fs.stat(uri)).size);
        return { path: uri.toString(), text: core.decodeDefinitionText(await vscode.workspace.fs.readFile(uri)) };
      } catch (error) {
        return core.unreadableTopicFile(uri.toString(), (error as Error).message);
      }
    }),
  );
}

/** Offsets into a text that may not be open in an editor, to a range. */
function toDiagnostic(text: string, offset: number, length: number, message: string, rule: string): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(positionIn(text, offset), positionIn(text, offset + length)),
    message,
    vscode.DiagnosticSeverity.Error,
  );
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = rule;
  return diagnostic;
}

function positionIn(text: string, offset: number): vscode.Position {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split(/\r\n|\r|\n/).length - 1;
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return new vscode.Position(line, before.length - lineStart);
}
