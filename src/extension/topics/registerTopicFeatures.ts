// Topic-aware authoring in the editor: the workspace's topic definitions, their problems in spot
// documents, completion, hovers, inlay hints, quick fixes, and "New Topic Definition from
// Document". Nothing here loads the core until a spot document or a definition file needs it.
import * as vscode from 'vscode';
import type { ExtensionServices } from '../platform/services';
import { spotDocumentSelector } from '../platform/checkedDocuments';
import { TopicCodeActionProvider } from './topicCodeActions';
import { TopicCompletionProvider } from './topicCompletion';
import { TopicDiagnostics } from './topicDiagnostics';
import { TopicHoverProvider } from './topicHover';
import { TopicInlayHintsProvider } from './topicInlayHints';
import { TopicStore } from './topicStore';
import { COMMAND } from '../platform/commandIds';
import { wrapCommand } from '../platform/commandWrapper';
import { loadFeatures } from '../platform/lazyFeatures';
import type { newTopicDefinition } from './newTopicDefinition';

/** What the topics feature takes from dist/features.js (see lazyFeatures.ts). */
export interface TopicFeatures {
  newTopicDefinition: typeof newTopicDefinition;
}

/**
 * Returns the workspace's topic definitions: the checks and imports of spot documents take them,
 * and the Galleries view reads field labels from them.
 */
export function registerTopicFeatures(services: ExtensionServices): TopicStore {
  const { disposables, log } = services;
  const store = new TopicStore(log);
  const inlayHints = new TopicInlayHintsProvider(store);
  const selector = spotDocumentSelector();
  disposables.push(
    store,
    new TopicDiagnostics(store, log),
    inlayHints,
    vscode.languages.registerCompletionItemProvider(selector, new TopicCompletionProvider(store), '"', ':'),
    vscode.languages.registerHoverProvider(selector, new TopicHoverProvider(store)),
    vscode.languages.registerInlayHintsProvider(selector, inlayHints),
    vscode.languages.registerCodeActionsProvider(selector, new TopicCodeActionProvider(store), TopicCodeActionProvider.metadata),
    // Through the command wrapper, as every command: logged, errors with their buttons, silent on cancel.
    // The command's code is in dist/features.js, loaded on first use.
    vscode.commands.registerCommand(
      COMMAND.newTopicDefinition,
      wrapCommand(
        COMMAND.newTopicDefinition,
        async (_services, target?: unknown) => (await loadFeatures<TopicFeatures>()).newTopicDefinition(store, log, target),
        services,
      ),
    ),
  );
  return store;
}
