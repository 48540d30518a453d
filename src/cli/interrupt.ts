// Ctrl-C in two steps. The first starts nothing new and lets uploads in flight finish, so the
// journal records exactly what the service has (an import in flight is dropped: the next run sends
// it again); the second drops those uploads too (the next run finds out from the gallery whether
// they arrived); a third leaves at once. SIGTERM is what a CI job's timeout or cancellation, a
// container's stop or a service manager sends, with a SIGKILL a few seconds later: nobody is
// there to press Ctrl-C again, so it counts as the second Ctrl-C at once (uploads in flight are
// dropped, the journal writes finish, the run ends with its summary and exit 130); a signal after
// it leaves at once.
export interface Interrupts {
  /** Fires on the first Ctrl-C (or a SIGTERM): start nothing new. */
  readonly stop: AbortSignal;
  /** Fires on the second (or a SIGTERM): abort what is in flight. */
  readonly abort: AbortSignal;
  dispose(): void;
}

export function watchInterrupts(stderr: NodeJS.WritableStream = process.stderr, exit: (code: number) => void = process.exit): Interrupts {
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) {
      if ((stderr as { isTTY?: boolean }).isTTY) stderr.write('\u001b[?25h'); // the bar hides the cursor: give it back
      exit(130);
    } else if (signal === 'SIGTERM') {
      stderr.write('\nTerminated (SIGTERM): nothing new is started. Aborting the uploads in flight (the next run finds out whether they arrived)…\n');
      stop.abort();
      abort.abort();
    } else if (!stop.signal.aborted) {
      stderr.write('\nStopping: nothing new is started, and uploads in flight finish (Ctrl-C again to abort them)…\n');
      stop.abort();
    } else {
      stderr.write('Aborting the uploads in flight (the next run finds out whether they arrived)…\n');
      abort.abort();
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stop: stop.signal,
    abort: abort.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
