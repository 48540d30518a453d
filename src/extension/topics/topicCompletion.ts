// Completion in documents of a defined topic: field names with their labels, and category keys
// with theirs. The JSON language service still offers what the spot schema knows.
import * as vscode from 'vscode';
import { isSpotDocument, mightBeSpotDocument, rangeOf } from '../documents/spotDocuments';
import { loadCore } from '../platform/lazyCore';
import type { TopicStore } from './topicStore';

export class TopicCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly store: TopicStore) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.CompletionItem[]> {
    if (!mightBeSpotDocument(document)) return [];
    const core = await loadCore();
    if (!isSpotDocument(core, document)) return [];
    const catalog = await this.store.catalogFor(document.uri);
    return core.topicCompletions(document.getText(), document.offsetAt(position), catalog).map((completion) => {
      const item = new vscode.CompletionItem(
        {
          label: completion.label,
          description: completion.description || undefined,
          detail: completion.kind === 'field' ? ` ${completion.detail}` : undefined,
        },
        completion.kind === 'field' ? vscode.CompletionItemKind.Field : vscode.CompletionItemKind.EnumMember,
      );
      item.insertText = new vscode.SnippetString(completion.insertSnippet);
      item.detail = completion.detail;
      if (completion.documentation) item.documentation = completion.documentation;
      item.sortText = completion.sortText;
      // Matched against what is typed from the start of the range: a quoted name when a quoted
      // name is being replaced. The label is in it too, so typing "Oak" finds the key 1.
      const name = completion.kind === 'field' && completion.replace ? JSON.stringify(completion.label) : completion.label;
      item.filterText = `${name} ${completion.description}`;
      if (completion.replace) item.range = rangeOf(document, completion.replace.offset, completion.replace.length);
      return item;
    });
  }
}
