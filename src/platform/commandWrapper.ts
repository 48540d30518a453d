// Every command handler runs through here: it is logged with its duration, cancellation ends it
// silently, and any other failure becomes one notification that says what happened and offers
// the next step (the buttons errorActions.ts decides, and "Show Log"). Which profile's
// credentials were refused is the client provider's to record, not guessed here from the active
// profile: a run may have used another one. Handlers therefore just throw.
import * as vscode from 'vscode';
import { isCancellation } from './cancellation';
import { SHOW_LOG, actionsFor } from './errorActions';
import { describeError } from './errors';
import type { ExtensionServices } from './services';

export type WrappedHandler<S extends ExtensionServices> = (services: S, ...args: unknown[]) => unknown;

export function wrapCommand<S extends ExtensionServices>(id: string, handler: WrappedHandler<S>, services: S): (...args: unknown[]) => Promise<unknown> {
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
  const actions = actionsFor(error);
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
