// Activation builds the few long-lived services and hands them to each feature. Nothing heavy is
// loaded here: the network code (dist/core.js) and the sandbox (dist/sandbox.js) load on first
// use, which keeps activation to a few milliseconds even though JSON files activate us.
import * as vscode from 'vscode';
import { CachingClientProvider } from './auth/clientProvider';
import { SecretCredentialStore } from './auth/credentialStore';
import { GlobalStateProfileStore } from './auth/profileStore';
import { registerProfileStatus } from './auth/profileStatus';
import { SandboxRunner } from './auth/sandboxRunner';
import { registerCommands } from './commands/registerCommands';
import { registerSpotDocuments } from './documents/registerDocuments';
import { loadCore } from './platform/lazyCore';
import { ChannelLogger } from './platform/log';
import { SANDBOX_PROFILE_ID, type ExtensionServices } from './platform/services';
import { UiHolder } from './platform/ui';
import { createGalleryStore } from './views/galleryStore';
import { registerGalleriesView } from './views/registerGalleriesView';
import { openWalkthroughOnStart } from './walkthrough/openOnStart';

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  const log = new ChannelLogger();
  const credentials = new SecretCredentialStore(context.secrets, log);
  const sandboxData = context.globalStorageUri.scheme === 'file' ? vscode.Uri.joinPath(context.globalStorageUri, 'sandbox').fsPath : undefined;
  const sandbox = new SandboxRunner(credentials, log, sandboxData);
  // Started by `npm start` next to a running sandbox: be connected to it until the user picks a profile.
  const fallbackProfile = process.env.SPOT_IMPORT_SANDBOX_URL ? SANDBOX_PROFILE_ID : undefined;
  const profiles = new GlobalStateProfileStore(context.globalState, credentials, () => sandbox.baseUrl(), fallbackProfile);
  const clients = new CachingClientProvider(profiles, credentials, sandbox, log);
  const galleries = createGalleryStore(context);
  // Disposed in reverse: clients and the sandbox stop before the log closes.
  context.subscriptions.push(log, credentials, profiles, galleries, sandbox, clients);

  const services: ExtensionServices = { context, log, ui: new UiHolder(), profiles, credentials, clients, galleries, core: loadCore };

  registerProfileStatus(context, profiles, log);
  const topics = registerSpotDocuments(context, log, profiles);
  registerCommands(context, services);
  registerGalleriesView(services, topics);
  openWalkthroughOnStart(context);

  log.info('activation', `activated in ${(performance.now() - started).toFixed(1)} ms (${vscode.ExtensionMode[context.extensionMode]} mode, VS Code ${vscode.version})`);
}

export function deactivate(): void {
  // Everything is owned by context.subscriptions.
}
