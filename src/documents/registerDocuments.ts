// Everything about spot documents in the editor: diagnostics while typing, the context key for
// menus, and the "Import Spot" CodeLens.
import * as vscode from 'vscode';
import type { TopicStore } from '../topics/topicStore';
import type { Logger, ProfileStore } from '../platform/services';
import { registerSpotCodeLens } from './spotCodeLens';
import { SpotDiagnostics } from './spotDiagnostics';
import { registerTopicFeatures } from '../topics/registerTopicFeatures';

export function registerSpotDocuments(context: vscode.ExtensionContext, log: Logger, profiles: ProfileStore): TopicStore {
  context.subscriptions.push(new SpotDiagnostics(log));
  registerSpotCodeLens(context, profiles);
  return registerTopicFeatures(context, log);
}
