// The one place where VS Code's cancellation meets the core's AbortSignal: a progress
// notification's token becomes a signal once, and everything below takes the signal.
import * as vscode from 'vscode';

/** An AbortSignal that fires when the token is cancelled; dispose the result when done. */
export function toAbortSignal(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => listener.dispose() };
}

/** Thrown by our own code when the user dismisses a prompt: the command wrapper stays silent. */
export class UserCancelledError extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'UserCancelledError';
  }
}

/** Cancellation from any layer: the core (CancelledError, kind 'cancelled'), fetch/undici (AbortError), VS Code, or a prompt. */
export function isCancellation(error: unknown): boolean {
  if (error instanceof vscode.CancellationError || error instanceof UserCancelledError) return true;
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || error.name === 'CancelledError' || (error as { kind?: string }).kind === 'cancelled';
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
