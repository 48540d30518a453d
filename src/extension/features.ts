// Entry of dist/features.js: the code that runs only when used, loaded by
// src/extension/platform/lazyFeatures.ts on first use. Activation registers the commands by id
// (src/extension/commands/registerCommandStubs.ts); the handlers are here, and the gallery grids,
// which only a command opens, the Galleries view's parts (built on the view's first need) and the
// tables' editor features (built when the first table or mapping is opened). Each feature states
// what it takes from here; this entry is held to all.
import type { CommandFeatures } from './commands/registerCommandStubs';
import { coreCommands } from './commands/registerCommands';
import { galleryCommands } from './galleries/commands';
import { rowCommands } from './tables/commands';
import { mapCommands } from './map/mapCommands';
import type { CommandTable } from './commands/commandTable';
import type { TopicFeatures } from './topics/registerTopicFeatures';
import { newTopicDefinition } from './topics/newTopicDefinition';
import type { ViewFeatures } from './galleries/galleriesViewShell';
import { buildGalleriesView } from './galleries/buildGalleriesView';
import { walkthroughCommands } from './walkthrough/commands';
import type { TablesFeatures } from './tables/registerTables';
import { buildTables } from './tables/buildTables';

/** The one table of commands: id -> handler (each runs through wrapCommand). */
export const commands: CommandTable = { ...coreCommands, ...galleryCommands, ...rowCommands, ...mapCommands, ...walkthroughCommands };
export { newTopicDefinition, buildGalleriesView, buildTables };

const entry = { commands, newTopicDefinition, buildGalleriesView, buildTables } satisfies CommandFeatures & TopicFeatures & ViewFeatures & TablesFeatures;
void entry;
