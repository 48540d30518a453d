// Hovers on the fields of a defined topic: label, type, description and allowed values, and the
// label of a category key.
import * as vscode from 'vscode';
import { isSpotDocument, mightBeSpotDocument, rangeOf } from '../documents/spotDocuments';
import { loadCore } from '../platform/lazyCore';
import type { TopicStore } from './topicStore';

export class TopicHoverProvider implements vscode.HoverProvider {
  constructor(private readonly store: TopicStore) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (!mightBeSpotDocument(document)) return undefined;
    const core = await loadCore();
    if (!isSpotDocument(core, document)) return undefined;
    const hover = core.topicHover(document.getText(), document.offsetAt(position), await this.store.catalogFor(document.uri));
    return hover ? new vscode.Hover(new vscode.MarkdownString(hover.markdown), rangeOf(document, hover.span.offset, hover.span.length)) : undefined;
  }
}
