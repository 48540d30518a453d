// Topic-aware authoring in the editor: the workspace's topic definitions, their problems in spot
// documents, completion, hovers, inlay hints, quick fixes, and "New Topic Definition from
// Document". Nothing here loads the core until a spot document or a definition file needs it.
import * as vscode from 'vscode';
import type { Logger } from '../platform/services';
import { SPOT_DOCUMENT_SELECTOR } from './spotSelector';
import { TopicCodeActionProvider } from './topicCodeActions';
import { TopicCompletionProvider } from './topicCompletion';
import { TopicDiagnostics } from './topicDiagnostics';
import { TopicHoverProvider } from './topicHover';
import { TopicInlayHintsProvider } from './topicInlayHints';
import { TopicStore } from './topicStore';
import type { DisposableStore } from '../platform/lifecycle';
import { COMMAND } from '../platform/commandIds';
import { loadFeatures } from '../platform/lazyFeatures';

/** Returns the workspace's topic definitions, which the Galleries view reads field labels from. */
export function registerTopicFeatures(disposables: DisposableStore, log: Logger): TopicStore {
  const store = new TopicStore(log);
  const inlayHints = new TopicInlayHintsProvider(store);
  disposables.push(
    store,
    new TopicDiagnostics(store, log),
    inlayHints,
    vscode.languages.registerCompletionItemProvider(SPOT_DOCUMENT_SELECTOR, new TopicCompletionProvider(store), '"', ':'),
    vscode.languages.registerHoverProvider(SPOT_DOCUMENT_SELECTOR, new TopicHoverProvider(store)),
    vscode.languages.registerInlayHintsProvider(SPOT_DOCUMENT_SELECTOR, inlayHints),
    vscode.languages.registerCodeActionsProvider(SPOT_DOCUMENT_SELECTOR, new TopicCodeActionProvider(store), TopicCodeActionProvider.metadata),
    vscode.commands.registerCommand(COMMAND.newTopicDefinition, async (target?: unknown) => {
      try {
        // The command's code is in dist/features.js, loaded on first use.
        return await (await loadFeatures()).newTopicDefinition(store, log, target);
      } catch (error) {
        log.error('topics', 'New Topic Definition from Document failed', error);
        void vscode.window.showErrorMessage(`Could not write the topic definition: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
    }),
  );
  return store;
}
