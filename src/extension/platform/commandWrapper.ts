// Every command handler runs through here: it is logged with its duration, cancellation ends it
// silently, and any other failure becomes one notification that says what happened and offers
// the next step (the buttons errorActions.ts decides, and "Show Log"). Which profile's
// credentials were refused is the client provider's to record, not guessed here from the active
// profile: a run may have used another one. Handlers therefore just throw.
import { isCancellation } from './cancellation';
import { actionsFor, showMessage } from './errorActions';
import { ActionableError, describeError } from './errors';
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
  showMessage(services, error instanceof ActionableError ? error.severity : 'error', describeError(error), actionsFor(error));
}
