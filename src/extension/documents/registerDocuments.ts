// Everything about spot documents in the editor: diagnostics while typing (which are also the
// check every import makes first: the SpotChecker the commands receive), the context key for
// menus, and the "Import Spot" CodeLens.
import type { Logger } from '../platform/services';
import type { ProfileStore } from '../platform/domain';
import type { DisposableStore } from '../platform/lifecycle';
import type { SpotChecker } from './spotChecker';
import { registerSpotCodeLens } from './spotCodeLens';
import { SpotDiagnostics, type TopicCatalogSource } from './spotDiagnostics';
import { MediaFolderEvents } from './mediaFolderEvents';

/** `topics`: the workspace's topic definitions (which fields are galleries, what a topic allows). */
export function registerSpotDocuments(disposables: DisposableStore, log: Logger, profiles: ProfileStore, topics: TopicCatalogSource): SpotChecker {
  // Added first, so it is disposed after the two that listen to it.
  const mediaFolders = disposables.add(new MediaFolderEvents());
  const checker = disposables.add(new SpotDiagnostics(log, topics, mediaFolders));
  registerSpotCodeLens(disposables, profiles, mediaFolders);
  return checker;
}
