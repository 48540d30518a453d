// Entry of dist/features.js: the code that runs only when used, loaded by
// src/platform/lazyFeatures.ts on first use. Activation registers the commands by id
// (src/commands/registerCommandStubs.ts); the handlers are here, and the gallery grids, which
// only a command opens.
export { commands } from './commands/registerCommands';
export { newTopicDefinition } from './topics/newTopicDefinition';
export { GalleryGrids } from './views/grid/galleryGrid';
