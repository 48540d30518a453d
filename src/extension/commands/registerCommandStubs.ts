// Activation registers every command of the command table (registerCommands.ts) at once, by id,
// without loading the handlers: each registration loads dist/features.js on its first call and
// hands the arguments to the handler, whose result it returns. Every call runs through
// wrapCommand (log, actionable errors, silent cancel), as before the split. The handlers receive
// the Galleries view built: its code is in the same bundle (galleriesViewShell.ts).
import * as vscode from 'vscode';
import { COMMAND } from '../platform/commandIds';
import { wrapCommand } from '../platform/commandWrapper';
import { loadedCore } from '../platform/lazyCore';
import { featuresLoaded, loadFeatures } from '../platform/lazyFeatures';
import { requireDiskFor } from '../platform/virtualWorkspace';
import { requireTrustFor } from '../platform/workspaceTrust';
import type { GalleriesView } from '../galleries/galleriesView';
import type { CommandHandler, CommandServices, CommandTable } from './commandTable';

/** What the commands take from dist/features.js (see lazyFeatures.ts): every handler, by id. */
export interface CommandFeatures {
  commands: CommandTable;
}

/** Our commands that their feature registers itself at activation, not through the command table. */
const REGISTERED_BY_FEATURE: ReadonlySet<string> = new Set([COMMAND.newTopicDefinition]);

/** The ids of the command table: every command of ours but those registered by their feature. */
const TABLE_IDS: readonly string[] = Object.values(COMMAND).filter((id) => !REGISTERED_BY_FEATURE.has(id));

/** Not contributed: hands the live services to integration tests (scripted UI, stores). */
const TEST_SERVICES_COMMAND = 'spotImport.test.services';
/** Not contributed: which lazily loaded bundles are loaded, so tests can check ordinary JSON never loads the core. */
const TEST_LAZY_MODULES_COMMAND = 'spotImport.test.lazyModules';

export function isTestMode(context: vscode.ExtensionContext): boolean {
  return context.extensionMode === vscode.ExtensionMode.Test || process.env.SPOT_IMPORT_TEST === '1';
}

/** The table's handler for id; a table that does not match TABLE_IDS fails every command, loudly. */
async function tableHandler(id: string): Promise<CommandHandler> {
  const { commands } = await loadFeatures<CommandFeatures>();
  const unregistered = Object.keys(commands).filter((key) => !TABLE_IDS.includes(key));
  const handler = commands[id];
  if (!handler || unregistered.length > 0) {
    throw new Error(
      `The command table does not match the registered commands (${id}${unregistered.length ? `; not registered: ${unregistered.join(', ')}` : ' has no handler'})`,
    );
  }
  return handler;
}

/** What activation has for the commands: all they receive but the Galleries view, which is built on first need. */
export type ActivationServices = Omit<CommandServices, 'galleriesView'>;

export function registerCommands(context: vscode.ExtensionContext, services: ActivationServices, galleriesView: () => Promise<GalleriesView>): void {
  // One object for every command once the view is built (a view that failed to build is tried again).
  let withView: CommandServices | undefined;
  const commandServices = async (): Promise<CommandServices> => (withView ??= { ...services, galleriesView: await galleriesView() });
  for (const id of TABLE_IDS) {
    const stub = async (_received: ActivationServices, ...args: unknown[]): Promise<unknown> => {
      // Before the handler is loaded: in Restricted Mode an import or upload is not even started.
      requireTrustFor(id);
      requireDiskFor(id);
      const handler = await tableHandler(id);
      return handler(await commandServices(), ...args);
    };
    services.disposables.push(vscode.commands.registerCommand(id, wrapCommand(id, stub, services)));
  }
  if (isTestMode(context)) {
    services.disposables.push(
      vscode.commands.registerCommand(TEST_SERVICES_COMMAND, commandServices),
      vscode.commands.registerCommand(TEST_LAZY_MODULES_COMMAND, () => ({ core: loadedCore() !== undefined, features: featuresLoaded() })),
    );
  }
}
