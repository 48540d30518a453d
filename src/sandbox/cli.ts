// `npm run sandbox`: runs the sandbox until SIGINT or SIGTERM. It prints exactly one line on
// stdout once it is listening (scripts and tests wait for that line and read the URL from it).
import { existsSync } from 'node:fs';
import { loadTopicFolder } from '../core/topics/topicFolder';
import { parseSandboxArgs, USAGE, UsageError, type CliConfig } from './cliArgs';
import { SaveError } from './journal';
import { startSandbox } from './sandbox';
import { DEMO_CLIENT, type RunningSandbox } from './types';

async function main(): Promise<void> {
  let config;
  try {
    config = parseSandboxArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`sandbox: ${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (config.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  let sandbox: RunningSandbox;
  try {
    const topics = config.topicsDir ? await readTopics(config.topicsDir) : undefined;
    sandbox = await startSandbox({
      ...config.options,
      ...(topics ? { topics } : {}),
      host: '127.0.0.1',
      // A failed save is the disk's problem, not a bug: said as what it is, and as loudly.
      onInternalError: (error) => process.stderr.write(`sandbox: ${error instanceof SaveError ? '' : 'internal error: '}${describe(error)}\n`),
    });
  } catch (error) {
    process.stderr.write(`sandbox: cannot start: ${describe(error)}\n`);
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(0); // a second signal: the user wants out now
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      (error) => {
        process.stderr.write(`sandbox: error while stopping on ${signal}: ${describe(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const ids = (config.options.clients ?? [DEMO_CLIENT]).map((client) => client.clientId);
  process.stdout.write(`Sandbox listening on ${sandbox.baseUrl} (${ids.length === 1 ? 'client' : 'clients'} ${ids.join(', ')})\n`);
}

/** The definitions in effect; a broken file is named on stderr and left out, as the editor does. */
async function readTopics(folder: NonNullable<CliConfig['topicsDir']>) {
  if (!existsSync(folder)) throw new Error(`--topics ${folder}: no such folder`);
  const set = await loadTopicFolder(folder);
  for (const file of set.files) {
    for (const problem of file.problems.filter((p) => p.severity === 'error')) process.stderr.write(`sandbox: ${file.path}: ${problem.message}\n`);
  }
  return set.catalog;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

main().catch((error) => {
  process.stderr.write(`sandbox: ${describe(error)}\n`);
  process.exit(1);
});
