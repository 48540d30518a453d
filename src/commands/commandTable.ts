import type { ExtensionServices } from '../platform/services';
import type { GalleriesView } from '../views/galleriesView';

/**
 * What a command receives: the services, and the Galleries view, which activation builds before
 * it registers the commands (so it is always there, and the services need not know of it).
 */
export interface CommandServices extends ExtensionServices {
  readonly galleriesView: GalleriesView;
}

/** A command handler receives the services first, then the arguments VS Code passes. */
export type CommandHandler = (services: CommandServices, ...args: unknown[]) => unknown;

/** Command id (without checking) to handler. registerCommandStubs.ts wraps each one. */
export type CommandTable = Record<string, CommandHandler>;
