// The topic rules' problems in spot documents, in their own collection next to the document's base
// diagnostics: debounced while typing (the check runs after the pause, never in the keystroke's
// path), again whenever the definitions change, and cleared when the document's tab closes. Each
// diagnostic's code is the rule's id, which quick fixes key on.
import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';
import { DisposableStore } from '../platform/lifecycle';
import type * as Core from '../../core';
import { isSpotDocument, mightBeSpotDocument, rangeOf } from '../documents/spotDocuments';
import { isCheckedDocument } from '../platform/checkedDocuments';
import { loadCore } from '../platform/lazyCore';
import type { Logger } from '../platform/services';
import { followDocuments } from '../documents/followDocuments';
import { isShownInTab } from '../platform/tabs';
import type { TopicStore } from './topicStore';

const TOPIC_DIAGNOSTICS_NAME = 'spotImport.topics';
const DEBOUNCE_MS = 300;

export class TopicDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(TOPIC_DIAGNOSTICS_NAME);
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** What it listens to, disposed with it (newest first). */
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly store: TopicStore,
    private readonly log: Logger,
  ) {
    this.disposables.push(
      this.collection,
      ...followDocuments({ schedule: (document, delayMs) => this.schedule(document, delayMs), clear: (uri) => this.clear(uri) }, DEBOUNCE_MS),
      store.onDidChange(() => this.recheckAll()),
    );
    this.recheckAll();
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    void this.disposables.dispose();
  }

  /**
   * The definitions changed: documents shown in a tab, or still carrying our problems, are checked
   * again. Not every document VS Code holds: it keeps closed ones loaded for a while, and their
   * problems were cleared with their tab.
   */
  private recheckAll(): void {
    for (const document of vscode.workspace.textDocuments) {
      if (isShownInTab(document.uri) || this.collection.has(document.uri)) this.schedule(document, 0);
    }
  }

  private schedule(document: vscode.TextDocument, delayMs: number): void {
    if (!isCheckedDocument(document.uri) || !mightBeSpotDocument(document)) {
      if (this.collection.has(document.uri)) this.collection.delete(document.uri);
      return;
    }
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.check(document).catch((error: unknown) => this.log.warn('topics', `could not check ${document.uri.path} against its topic`, error));
      }, delayMs),
    );
  }

  private async check(document: vscode.TextDocument): Promise<void> {
    const core = await loadCore();
    if (document.isClosed || !isSpotDocument(core, document)) {
      this.collection.delete(document.uri);
      return;
    }
    const catalog = await this.store.catalogFor(document.uri);
    if (document.isClosed) return;
    const problems = core.checkSpotAgainstTopic(document.getText(), catalog);
    this.collection.set(
      document.uri,
      problems.map((problem) => toDiagnostic(document, problem)),
    );
  }

  private clear(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.collection.delete(uri);
  }
}

function toDiagnostic(document: vscode.TextDocument, problem: Core.TopicProblem): vscode.Diagnostic {
  const severity = problem.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error;
  const diagnostic = new vscode.Diagnostic(rangeOf(document, problem.offset, problem.length), problem.message, severity);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = problem.rule;
  return diagnostic;
}
