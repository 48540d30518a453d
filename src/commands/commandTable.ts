import type { ExtensionServices } from '../platform/services';

/** A command handler receives the services first, then the arguments VS Code passes. */
export type CommandHandler = (services: ExtensionServices, ...args: unknown[]) => unknown;

/** Command id (without checking) to handler. registerCommands.ts wraps each one. */
export type CommandTable = Record<string, CommandHandler>;
