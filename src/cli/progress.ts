// Progress goes to stderr, and only to a terminal: a cli-progress bar with counts, bytes and rate;
// plain lines every few seconds on a terminal that cannot redraw (TERM=dumb); nothing when stderr
// is a file or a pipe (CI logs, `2> log.txt`), so results on stdout stay the whole story there.
import { Presets, SingleBar } from 'cli-progress';
import { formatBytes } from './output/text';
import { printable } from '../core/text/printable';
import { withMembers } from '../core/objects/withMembers';

interface ProgressState {
  done: number;
  /** Undefined: not known before the end (a table's rows are read as they are imported). */
  total?: number;
  /** Bytes read (documents) or sent (uploads) so far. */
  bytes: number;
  /** Bytes to send in all, when known (uploads). */
  totalBytes?: number;
}

export interface Progress {
  update(state: ProgressState): void;
  /** A line for the user (a warning) that must not tangle with the bar. */
  note(line: string): void;
  /**
   * Takes the bar off its line before a result goes to stdout, which may be the same terminal;
   * the bar is drawn again, below the result, when its text next changes (cli-progress redraws
   * only then: the count, bytes or rate of the next update).
   */
  clear(): void;
  stop(): void;
}

type Stream = NodeJS.WritableStream & { isTTY?: boolean };

export function createProgress(unit: string, stream: Stream = process.stderr, env: NodeJS.ProcessEnv = process.env): Progress {
  const progress: Progress = !stream.isTTY
    ? { update() {}, note: (line) => stream.write(`${line}\n`), clear() {}, stop() {} }
    : env.TERM === 'dumb'
      ? plainLines(unit, stream)
      : bar(unit, stream);
  // A note quotes the table (a header, a file name): shown, never obeyed, in a terminal (printable.ts).
  return withMembers(progress, { note: (line: string) => progress.note(printable(line)) });
}

function describe(unit: string, state: ProgressState, started: number): { counts: string; bytes: string; rate: string } {
  const seconds = Math.max((Date.now() - started) / 1000, 0.001);
  const bytes = state.totalBytes !== undefined ? `${formatBytes(state.bytes)} of ${formatBytes(state.totalBytes)}` : `${formatBytes(state.bytes)}`;
  const rate =
    state.totalBytes !== undefined
      ? `${formatBytes(state.bytes / seconds)}/s`
      : `${(state.done / seconds).toFixed(state.done / seconds < 10 ? 1 : 0)} ${unit}/s`;
  return { counts: state.total === undefined ? `${state.done} ${unit}` : `${state.done}/${state.total} ${unit}`, bytes, rate };
}

function bar(unit: string, stream: Stream): Progress {
  const started = Date.now();
  let active = false;
  let progress: SingleBar | undefined;
  // Made at the first update: without a total there is nothing to fill, so no bar, only the counts.
  const made = (withBar: boolean) =>
    new SingleBar(
      {
        stream,
        format: withBar ? '{bar} {counts} | {bytes} | {rate}' : '{counts} | {bytes} | {rate}',
        barsize: 30,
        hideCursor: true,
        clearOnComplete: true,
        fps: 8,
      },
      Presets.shades_classic,
    );
  return {
    update(state) {
      const total = state.totalBytes ?? state.total ?? state.done;
      const value = state.totalBytes !== undefined ? state.bytes : state.done;
      const payload = describe(unit, state, started);
      if (!active || !progress) {
        active = true;
        progress ??= made(state.totalBytes !== undefined || state.total !== undefined);
        progress.start(Math.max(total, 1), value, payload);
      } else {
        progress.setTotal(Math.max(total, 1));
        progress.update(value, payload);
      }
    },
    note(line) {
      stream.write(active ? `\r\u001b[2K${line}\n` : `${line}\n`);
    },
    clear() {
      if (active) stream.write('\r\u001b[2K');
    },
    stop() {
      if (active) progress?.stop();
      active = false;
    },
  };
}

function plainLines(unit: string, stream: Stream): Progress {
  const started = Date.now();
  let last = 0;
  return {
    update(state) {
      if (Date.now() - last < 2000 && (state.total === undefined || state.done < state.total)) return;
      last = Date.now();
      const { counts, bytes, rate } = describe(unit, state, started);
      stream.write(`${counts} | ${bytes} | ${rate}\n`);
    },
    note: (line) => stream.write(`${line}\n`),
    clear() {},
    stop() {},
  };
}
