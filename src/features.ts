// Entry of dist/features.js: the code that runs only when a command is invoked, loaded by
// src/platform/lazyFeatures.ts on first use. Activation registers the commands by id
// (src/commands/registerCommandStubs.ts); the handlers are here.
export { commands } from './commands/registerCommands';
export { newTopicDefinition } from './topics/newTopicDefinition';
