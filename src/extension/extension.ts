// Activation builds the few long-lived services and hands them to each feature. Nothing heavy is
// loaded here: the network code (dist/core.js) and the sandbox (dist/sandbox.js) load on first
// use, which keeps activation to a few milliseconds even though JSON files activate us.
import * as vscode from 'vscode';
import type * as Core from '../core';
import { COMMAND } from './platform/commandIds';
import { CachingClientProvider } from './profiles/auth/clientProvider';
import { SecretCredentialStore } from './profiles/auth/credentialStore';
import { GlobalStateProfileStore } from './profiles/auth/profileStore';
import { registerProfileStatus } from './profiles/auth/profileStatus';
import { SandboxRunner } from './profiles/auth/sandboxRunner';
import { isTestMode, registerCommands } from './commands/registerCommandStubs';
import { registerSpotDocuments } from './documents/registerDocuments';
import { registerTables } from './tables/registerTables';
import { registerTopicFeatures } from './topics/registerTopicFeatures';
import { loadCore, prepareCoreCodeCacheSoon } from './platform/lazyCore';
import { useMessageBundle } from '../core/text/l10n';
import { DisposableStore } from './platform/lifecycle';
import { ChannelLogger } from './platform/log';
import type { ExtensionServices } from './platform/services';
import { SANDBOX_PROFILE_ID } from './platform/domain';
import { UiHolder } from './platform/ui';
import { OpenPanels } from './platform/openPanels';
import type { MapPanel } from './map/mapPanel';
import { createGalleryStore } from './galleries/galleryStore';
import { registerGalleriesView } from './galleries/galleriesViewShell';

/** Not contributed: builds a second set of services on a context and log channel a test hands in. */
export const TEST_CREATE_SERVICES_COMMAND = 'spotImport.test.createServices';

/** The long-lived services, and what VS Code's deactivate() is to wait for. */
export interface OwnedServices {
  services: ExtensionServices;
  /** The local sandbox, told the workspace's topic definitions once they are known. */
  sandbox: SandboxRunner;
  deactivate(): Promise<void>;
}

/**
 * Builds the services into one DisposableStore, which disposes in reverse: the log is made first
 * and so closes last, after the clients and the sandbox have stopped (and said so).
 */
export function createServices(context: vscode.ExtensionContext, channel?: vscode.LogOutputChannel): OwnedServices {
  const disposables = new DisposableStore();
  // Also handed to VS Code, in case deactivate() is not called: disposing again changes nothing.
  context.subscriptions.push(disposables);
  const log = disposables.add(new ChannelLogger(channel));
  const credentials = new SecretCredentialStore(context.secrets, log);
  const sandboxData = context.globalStorageUri.scheme === 'file' ? vscode.Uri.joinPath(context.globalStorageUri, 'sandbox').fsPath : undefined;
  const sandbox = new SandboxRunner(credentials, log, sandboxData);
  // Started by `npm start` next to a running sandbox: be connected to it until the user picks a profile.
  const fallbackProfile = process.env.SPOT_IMPORT_SANDBOX_URL ? SANDBOX_PROFILE_ID : undefined;
  const profiles = new GlobalStateProfileStore(context.globalState, credentials, () => sandbox.baseUrl(), fallbackProfile);
  const clients = new CachingClientProvider(profiles, credentials, sandbox, log);
  const galleries = createGalleryStore(context);
  disposables.push(credentials, profiles, galleries, sandbox, clients);
  let journalAccounts: Promise<Core.JournalAccounts> | undefined;
  const services: ExtensionServices = {
    context,
    disposables,
    log,
    ui: new UiHolder(),
    profiles,
    credentials,
    clients,
    galleries,
    core: loadCore,
    journalAccounts: () => (journalAccounts ??= loadCore().then((core) => disposables.add(new core.JournalAccounts()))),
  };
  return { services, sandbox, deactivate: () => disposables.dispose() };
}

let owned: OwnedServices | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const phases: string[] = [];
  let last = started;
  const phase = (name: string) => {
    const now = performance.now();
    phases.push(`${name} ${(now - last).toFixed(1)}`);
    last = now;
  };
  // The core's messages in VS Code's display language (l10n/bundle.l10n.<language>.json holds
  // both the extension's strings and the core's).
  useMessageBundle(vscode.l10n.bundle, vscode.env.language);
  owned = createServices(context);
  const { services } = owned;
  const { log, profiles, disposables } = services;
  phase('services');
  registerProfileStatus(disposables, profiles, log);
  phase('status');
  // The topic definitions and the spot checker: built here once, and handed to what uses them.
  const topics = registerTopicFeatures(services);
  const checker = registerSpotDocuments(disposables, log, profiles, topics);
  const tables = registerTables(disposables, log, topics);
  owned.sandbox.useTopics({ get: (topicId) => topics.latestDefinition(topicId) });
  phase('documents');
  // The view first: the commands that act on it receive it (built, with their own code).
  const galleries = registerGalleriesView(services, topics);
  phase('view');
  const mapPanels = disposables.add(new OpenPanels<MapPanel>());
  registerCommands(context, { ...services, checker, tables, mapPanels }, () => galleries.view());
  phase('commands');
  // `npm start` sets SPOT_IMPORT_OPEN_WALKTHROUGH=1: its window shows the walkthrough first. Through
  // the command, so the walkthrough's code stays out of activation (it is in dist/features.js).
  if (process.env.SPOT_IMPORT_OPEN_WALKTHROUGH === '1') void vscode.commands.executeCommand(COMMAND.openWalkthrough);
  if (isTestMode(context)) {
    disposables.push(
      vscode.commands.registerCommand(TEST_CREATE_SERVICES_COMMAND, (testContext: vscode.ExtensionContext, channel: vscode.LogOutputChannel) =>
        createServices(testContext, channel),
      ),
    );
  }

  // The first window after an install or update has no code cache for dist/core.js yet: built in
  // a worker a few seconds from now, so that its first network use is quicker too.
  prepareCoreCodeCacheSoon();

  log.info(
    'activation',
    `activated in ${(performance.now() - started).toFixed(1)} ms (${vscode.ExtensionMode[context.extensionMode]} mode, VS Code ${vscode.version}, display language ${vscode.env.language}${vscode.l10n.bundle ? '' : ' (English: no bundle)'}; ms per step: ${phases.join(', ')})`,
  );
}

/** VS Code waits for this before it disposes context.subscriptions (in array order). */
export function deactivate(): Promise<void> | undefined {
  const ending = owned;
  owned = undefined;
  return ending?.deactivate() ?? undefined;
}
