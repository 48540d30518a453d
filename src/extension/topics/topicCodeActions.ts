// Quick fixes for spot documents, keyed on the diagnostic's code (a rule id): the topic rules'
// own problems (a spot outside its topic's area offers the swap of latitude and longitude when
// that brings it in), and three of the document's base problems (a duplicate member, a pending
// gallery without state 2, a latitude out of range that is probably swapped with the longitude).
// The edits come from the core, computed on the text as it is now.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { isSpotDocument, mightBeSpotDocument } from '../documents/spotDocuments';
import { loadCore } from '../platform/lazyCore';
import type { TopicStore } from './topicStore';

/** Diagnostic codes with a quick fix. */
const FIXABLE_CODES = new Set<string>([
  'spot.misspeltMember',
  'topic.undefinedField',
  'topic.categoryLabel',
  'topic.requiredMissing',
  'spot.duplicateMember',
  'spot.pendingNeedsState2',
  'spot.swappedCoordinates',
  'topic.outsideArea',
]);

/** The code (rule id) a diagnostic is fixed by. */
function fixCodeOf(diagnostic: vscode.Diagnostic): string | undefined {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  return typeof code === 'string' && FIXABLE_CODES.has(code) ? code : undefined;
}

export class TopicCodeActionProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly store: TopicStore) {}

  async provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const fixable = context.diagnostics.filter((diagnostic) => fixCodeOf(diagnostic) !== undefined);
    if (fixable.length === 0 || !mightBeSpotDocument(document)) return [];
    const core = await loadCore();
    if (!isSpotDocument(core, document)) return [];
    const catalog = await this.store.catalogFor(document.uri);
    const text = document.getText();
    const actions = new Map<string, vscode.CodeAction>();
    for (const diagnostic of fixable) {
      for (const fix of core.topicQuickFixes(text, fixCodeOf(diagnostic)!, document.offsetAt(diagnostic.range.start), catalog)) {
        // One action for several problems it fixes at once (e.g. every missing required field).
        const known = actions.get(fix.title);
        if (known) {
          known.diagnostics = [...(known.diagnostics ?? []), diagnostic];
          continue;
        }
        actions.set(fix.title, toAction(document, fix, diagnostic));
      }
    }
    return [...actions.values()];
  }
}

function toAction(document: vscode.TextDocument, fix: Core.TopicQuickFix, diagnostic: vscode.Diagnostic): vscode.CodeAction {
  const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
  const edit = new vscode.WorkspaceEdit();
  for (const change of fix.edits) {
    edit.replace(document.uri, new vscode.Range(document.positionAt(change.offset), document.positionAt(change.offset + change.length)), change.content);
  }
  action.edit = edit;
  action.diagnostics = [diagnostic];
  action.isPreferred = fix.preferred;
  return action;
}
