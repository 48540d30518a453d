// The one place where VS Code's cancellation meets the core's AbortSignal: a progress
// notification's token becomes a signal once, and everything below takes the signal.
import * as vscode from 'vscode';
import { isCancellation } from '../../core/api/errors';

/**
 * Cancellation from any layer (the core, an AbortSignal, VS Code, a dismissed prompt): the one
 * rule lives in the core, which reads errors by shape.
 */
export { isCancellation };

/** An AbortSignal that fires when the token is cancelled; dispose the result when done. */
export function toAbortSignal(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}

/**
 * Thrown by our own code when the user dismisses a prompt: the command wrapper stays silent. Named
 * as the core names its cancellations, so isCancellation knows it.
 */
export class UserCancelledError extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'CancelledError';
  }
}

/** Ends a command quietly when a prompt was dismissed. */
export function required<T>(value: T | undefined): T {
  if (value === undefined) throw new UserCancelledError();
  return value;
}

export interface ProgressRun {
  title: string;
  /** Where to show it; notifications by default. */
  location?: vscode.ProgressLocation;
  /**
   * Cancels the run as the notification's Cancel button does: for a caller with a cancellation of
   * its own, and for tests, which cannot click the button.
   */
  signal?: AbortSignal;
}

/** withProgress, cancellable, with the token (and the run's own signal, if any) turned into one signal. */
export function withCancellableProgress<T>(
  run: ProgressRun,
  task: (progress: vscode.Progress<{ message?: string; increment?: number }>, signal: AbortSignal) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: run.location ?? vscode.ProgressLocation.Notification, title: run.title, cancellable: true },
    async (progress, token) => {
      const abort = toAbortSignal(token);
      try {
        return await task(progress, run.signal ? AbortSignal.any([abort.signal, run.signal]) : abort.signal);
      } finally {
        abort.dispose();
      }
    },
  );
}
