// Labels shown inline after each fld_ name of a defined topic and after each category key, so a
// document reads "fld_7_1 Species: 1 Oak". The setting spotImport.topics.inlayHints turns them off.
import * as vscode from 'vscode';
import { DisposableStore } from '../platform/lifecycle';
import { isSpotDocument, mightBeSpotDocument } from '../documents/spotDocuments';
import { loadCore } from '../platform/lazyCore';
import { SETTINGS_SECTION } from '../platform/settings';
import type { TopicStore } from './topicStore';

const INLAY_HINTS_SETTING = 'topics.inlayHints';

export class TopicInlayHintsProvider implements vscode.InlayHintsProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeInlayHints = this.changed.event;
  /** What it listens to, disposed with it (newest first). */
  private readonly disposables = new DisposableStore();

  constructor(private readonly store: TopicStore) {
    this.disposables.push(
      this.changed,
      store.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SETTINGS_SECTION}.${INLAY_HINTS_SETTING}`)) this.changed.fire();
      }),
    );
  }

  async provideInlayHints(document: vscode.TextDocument, range: vscode.Range): Promise<vscode.InlayHint[]> {
    if (!vscode.workspace.getConfiguration(SETTINGS_SECTION, document.uri).get<boolean>(INLAY_HINTS_SETTING, true)) return [];
    if (!mightBeSpotDocument(document)) return [];
    const core = await loadCore();
    if (!isSpotDocument(core, document)) return [];
    const hints = core.topicInlayHints(document.getText(), await this.store.catalogFor(document.uri));
    const start = document.offsetAt(range.start);
    const end = document.offsetAt(range.end);
    return hints
      .filter((hint) => hint.offset >= start && hint.offset <= end)
      .map((hint) => {
        const inlay = new vscode.InlayHint(
          document.positionAt(hint.offset),
          hint.label,
          hint.kind === 'field' ? vscode.InlayHintKind.Type : vscode.InlayHintKind.Parameter,
        );
        inlay.paddingLeft = true;
        return inlay;
      });
  }

  dispose(): void {
    void this.disposables.dispose();
  }
}
