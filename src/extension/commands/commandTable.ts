import type { SpotChecker } from '../documents/spotChecker';
import type { ExtensionServices } from '../platform/services';
import type { LazyTables } from '../tables/registerTables';
import type { GalleriesView } from '../galleries/galleriesView';
import type { MapPanel } from '../map/mapPanel';
import type { OpenPanels } from '../platform/openPanels';

/**
 * What a command receives: the services, the Galleries view, the spot checker and the tables, which
 * activation builds before it registers the commands (so they are always there, and the
 * services need not know of them).
 */
export interface CommandServices extends ExtensionServices {
  readonly galleriesView: GalleriesView;
  /** The editor's checks of spot documents, and the topic definitions in effect: every import starts with them. */
  readonly checker: SpotChecker;
  /** The checks of open tables with a mapping, the previews of their rows and the views of workbooks (built on first need: `await tables.ready()`). */
  readonly tables: LazyTables;
  /** The window's open maps, by what they show (closed at deactivation). */
  readonly mapPanels: OpenPanels<MapPanel>;
}

/** A command handler receives the services first, then the arguments VS Code passes. */
export type CommandHandler = (services: CommandServices, ...args: unknown[]) => unknown;

/** Command id (without checking) to handler. registerCommandStubs.ts wraps each one. */
export type CommandTable = Record<string, CommandHandler>;
