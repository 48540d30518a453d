// Everything about spot documents in the editor: diagnostics while typing, the context key for
// menus, and the "Import Spot" CodeLens.
import type { TopicStore } from '../topics/topicStore';
import type { Logger } from '../platform/services';
import type { ProfileStore } from '../platform/domain';
import { registerSpotCodeLens } from './spotCodeLens';
import { SpotDiagnostics } from './spotDiagnostics';
import { registerTopicFeatures } from '../topics/registerTopicFeatures';
import type { DisposableStore } from '../platform/lifecycle';

export function registerSpotDocuments(disposables: DisposableStore, log: Logger, profiles: ProfileStore): TopicStore {
  const topics = registerTopicFeatures(disposables, log);
  // Spot documents are checked with the topic definitions (which fields are galleries).
  disposables.push(new SpotDiagnostics(log, topics));
  registerSpotCodeLens(disposables, profiles);
  return topics;
}
