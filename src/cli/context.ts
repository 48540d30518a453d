// What a command needs from the process, passed in so every command reads the same streams,
// folder and environment (and a test or the bench could hand in others).
import { printable } from '../core/text/printable';
import { LineWriter } from './output/lineWriter';
import { createReporter } from './output/createReporter';
import type { CommandName, Outcome, OutcomeStatus, RunSummary } from './output/records';
import type { OutputFormat, Reporter } from './output/reporter';
import type { Progress } from './progress';

export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  version: string;
}

export function processContext(version: string): CliContext {
  return { cwd: process.cwd(), env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, version };
}

/** Results of one run: streamed to stdout by the chosen format, counted for the summary. */
export class RunOutput {
  readonly counts: Partial<Record<OutcomeStatus, number>> = {};
  total = 0;
  private readonly out: LineWriter;
  private readonly reporter: Reporter;
  private readonly started = Date.now();

  constructor(
    private readonly context: CliContext,
    private readonly command: CommandName,
    format: OutputFormat,
    /** The run's progress bar, taken off its line before results are written (see Progress.clear). */
    progress?: Pick<Progress, 'clear'>,
  ) {
    this.out = new LineWriter(context.stdout, progress && (() => progress.clear()));
    this.reporter = createReporter(format, command, this.out, { version: context.version, cwd: context.cwd, stdout: context.stdout, env: context.env });
  }

  outcome(outcome: Outcome): void {
    this.total++;
    this.counts[outcome.status] = (this.counts[outcome.status] ?? 0) + 1;
    this.reporter.outcome(outcome);
  }

  count(status: OutcomeStatus): number {
    return this.counts[status] ?? 0;
  }

  /** Ends the run: the summary to the format (JSON lines, SARIF, JUnit) and as one line on stderr. */
  async finish(message: string, exitCode: number, stopped?: RunSummary['stopped']): Promise<number> {
    const summary: RunSummary = {
      command: this.command,
      total: this.total,
      counts: this.counts,
      stopped,
      message,
      exitCode,
      durationMs: Date.now() - this.started,
    };
    this.reporter.finish(summary);
    await this.out.end();
    this.context.stderr.write(`${printable(message)}\n`);
    return exitCode;
  }
}
