// Ctrl-C in two steps. The first starts nothing new and lets uploads in flight finish, so the
// journal records exactly what the service has (an import in flight is dropped: the next run sends
// it again); the second drops those uploads too (the next run finds out from the gallery whether
// they arrived); a third leaves at once. SIGTERM (a CI job being cancelled) counts as Ctrl-C.
export interface Interrupts {
  /** Fires on the first Ctrl-C: start nothing new. */
  readonly stop: AbortSignal;
  /** Fires on the second: abort what is in flight. */
  readonly abort: AbortSignal;
  dispose(): void;
}

export function watchInterrupts(stderr: NodeJS.WritableStream = process.stderr, exit: (code: number) => void = process.exit): Interrupts {
  const stop = new AbortController();
  const abort = new AbortController();
  let count = 0;
  const onSignal = () => {
    count++;
    if (count === 1) {
      stderr.write('\nStopping: nothing new is started, and uploads in flight finish (Ctrl-C again to abort them)…\n');
      stop.abort();
    } else if (count === 2) {
      stderr.write('Aborting the uploads in flight (the next run finds out whether they arrived)…\n');
      abort.abort();
    } else {
      if ((stderr as { isTTY?: boolean }).isTTY) stderr.write('\u001b[?25h'); // the bar hides the cursor: give it back
      exit(130);
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
