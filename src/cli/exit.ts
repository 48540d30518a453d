// The exit codes CI reads, and the one error type that carries one. The split follows ESLint,
// markdownlint-cli and Ruff: 1 means "your documents are wrong", 2 means "the job is misconfigured".

export const EXIT = {
  /** Everything checked, imported or uploaded. */
  ok: 0,
  /** Some documents invalid, or some imports or uploads failed; the others were still done. */
  failures: 1,
  /** Usage, configuration or credentials: nothing was attempted, or the run stopped. */
  usage: 2,
  /** Ctrl-C: the requests in flight finished, the journal is consistent. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A problem that ends the command with one clear line on stderr and the given exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
