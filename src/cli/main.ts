// spot-import: the command-line front end of the spot service core (dist/cli.js). It parses the
// arguments, calls src/core exactly as the extension does, prints, and exits with a code CI can
// read. Bad input of any kind ends in one clear line on stderr, never a stack trace.
import { printable } from '../core/text/printable';
import { CommanderError } from 'commander';
import { version } from '../../package.json';
import { processContext } from './context';
import { CliError, EXIT } from './exit';
import { buildProgram } from './program';
import { toCliError } from './serviceFailure';

const HELP_OR_VERSION = new Set(['commander.helpDisplayed', 'commander.version']);

async function main(argv: string[]): Promise<number> {
  const context = processContext(version);
  let exitCode: number = EXIT.ok;
  const program = buildProgram(context, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return HELP_OR_VERSION.has(error.code) ? EXIT.ok : EXIT.usage;
    let failure: CliError;
    try {
      failure = toCliError(error);
    } catch {
      const detail = context.env.SPOT_IMPORT_DEBUG ? `\n${(error as Error).stack}` : ' (set SPOT_IMPORT_DEBUG=1 for details)';
      context.stderr.write(`spot-import: unexpected error: ${(error as Error)?.message ?? String(error)}${detail}\n`);
      return EXIT.usage;
    }
    context.stderr.write(
      failure.message
        .split('\n')
        .map((line) => `spot-import: ${printable(line)}\n`)
        .join(''),
    );
    return failure.exitCode;
  }
}

// `spot-import … | head` closes stdout early: that is the reader's choice, not an error. Exiting
// here would end the run with whatever code it had so far (0 before any result was counted), so a
// failing run piped into `head` would pass in CI. The run goes on to its end instead and exits with
// its own code: Node destroys stdout on the error and drops every later write to it (each write's
// callback gets ERR_STREAM_DESTROYED, so nothing waits), and the summary still goes to stderr.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') return;
  throw error;
});

main(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`spot-import: ${(error as Error)?.message ?? String(error)}\n`);
    process.exit(EXIT.usage);
  },
);
