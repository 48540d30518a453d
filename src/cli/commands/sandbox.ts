// spot-import sandbox [flags]: the local sandbox in the foreground until Ctrl-C. Its flags are the
// sandbox's own (src/sandbox/cliArgs.ts parses them, so a flag added there works here too); it
// prints one line once it listens, as `npm run sandbox` does.
import { parseSandboxArgs, USAGE, UsageError } from '../../sandbox/cliArgs';
import { startSandbox, DEMO_CLIENT } from '../../sandbox';
import { CliError, EXIT } from '../exit';
import type { CliContext } from '../context';

export function sandboxUsage(): string {
  return USAGE.replace(
    'Usage: npm run sandbox -- [options]',
    'Usage: spot-import sandbox [options]\n\nRuns the local sandbox (the service interface on 127.0.0.1) until Ctrl-C.',
  );
}

export async function runSandbox(args: string[], context: CliContext): Promise<number> {
  let config;
  try {
    config = parseSandboxArgs(args, context.cwd);
  } catch (error) {
    if (error instanceof UsageError) throw new CliError(`sandbox: ${error.message} (see spot-import sandbox --help)`);
    throw error;
  }
  if (config.help) {
    context.stdout.write(`${sandboxUsage()}\n`);
    return EXIT.ok;
  }
  const sandbox = await startSandbox({
    ...config.options,
    host: '127.0.0.1',
    onInternalError: (error) => context.stderr.write(`sandbox: internal error: ${(error as Error).message ?? String(error)}\n`),
  }).catch((error: Error) => {
    throw new CliError(`sandbox: cannot start: ${error.message}`);
  });
  const ids = (config.options.clients ?? [DEMO_CLIENT]).map((client) => client.clientId);
  context.stdout.write(`Sandbox listening on ${sandbox.baseUrl} (${ids.length === 1 ? 'client' : 'clients'} ${ids.join(', ')})\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sandbox.close();
  return EXIT.ok;
}
