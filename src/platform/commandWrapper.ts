// Every command handler runs through here: it is logged with its duration, cancellation ends it
// silently, and any other failure becomes one notification that says what happened and offers
// the next step ("Show Log", "Update Credentials" when the credentials were refused, or the
// actions an ActionableError carries). Handlers therefore just throw.
import * as vscode from 'vscode';
import { isCancellation } from './cancellation';
import { ActionableError, OPEN_CA_SETTINGS, describeError, isAuthenticationError, untrustedCertificateCode, type ErrorAction } from './errors';
import type { ExtensionServices } from './services';

export const SHOW_LOG = 'Show Log';
export const UPDATE_CREDENTIALS = 'Update Credentials';

export type WrappedHandler = (services: ExtensionServices, ...args: unknown[]) => unknown;

export function wrapCommand(id: string, handler: WrappedHandler, services: ExtensionServices): (...args: unknown[]) => Promise<unknown> {
  return async (...args: unknown[]) => {
    const started = Date.now();
    services.log.trace('command', `${id} started`);
    try {
      const result = await handler(services, ...args);
      services.log.info('command', `${id} finished in ${Date.now() - started} ms`);
      return result;
    } catch (error) {
      if (isCancellation(error)) {
        services.log.info('command', `${id} cancelled after ${Date.now() - started} ms`);
        return undefined;
      }
      services.log.error('command', `${id} failed after ${Date.now() - started} ms`, error);
      reportError(services, error);
      return undefined;
    }
  };
}

/**
 * Shows the failure without waiting for the user: the command finishes at once, and the chosen
 * button runs whenever it is clicked.
 */
export function reportError(services: ExtensionServices, error: unknown): void {
  const actions: ErrorAction[] = error instanceof ActionableError ? [...error.actions] : [];
  if (untrustedCertificateCode(error)) actions.push(OPEN_CA_SETTINGS);
  if (isAuthenticationError(error)) {
    const profile = services.profiles.active();
    if (profile) services.clients.reportRejected(profile);
    actions.push({ title: UPDATE_CREDENTIALS, command: 'spotImport.setCredentials' });
  }
  const buttons = [...actions.map((action) => action.title), SHOW_LOG];
  void services.ui.showErrorMessage(describeError(error), ...buttons).then(
    (choice) => {
      if (choice === SHOW_LOG) services.log.show();
      const action = actions.find((candidate) => candidate.title === choice);
      if (action) void vscode.commands.executeCommand(action.command, ...(action.args ?? []));
    },
    (promptError: unknown) => services.log.warn('command', 'could not show the error', promptError),
  );
}
