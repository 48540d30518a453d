// A child process for the crash-resume test: runs the media workflow over every *.spot.json in a
// folder against a sandbox URL, printing one JSON line per step and a last summary line. The test
// kills it with SIGKILL at random moments and runs it again. With <compactAtBytes>, the journal's
// log is compacted that soon and whenever a third of it is stale, so kills also land in compactions.
// Usage: node workflowChild.js <baseUrl> <folder> <journalDir> [compactAtBytes]
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient, TokenSource, defaultTokenUrl, journalAccountOf, streamImport, type SpotOutcome } from '../../../src/core';
import { DEMO_CLIENT } from '../../../src/sandbox/types';
import { testAccounts } from './testAccounts';

async function main(): Promise<number> {
  const [baseUrl, folder, journalDir, compactAt] = process.argv.slice(2);
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(baseUrl), ...DEMO_CLIENT });
  const retry = { baseMs: 5, maxMs: 100, maxRetries: 8 };
  const client = new ServiceClient({ baseUrl, tokens, retry });
  const inputs = readdirSync(folder)
    .filter((name) => name.endsWith('.spot.json'))
    .sort()
    .map((name) => ({ path: join(folder, name), label: name }));
  // Loading the modules takes a while on a busy machine: the test times its kill from here.
  process.stdout.write('{"ready":true}\n');
  const journal = {
    accounts: testAccounts,
    dir: journalDir,
    account: journalAccountOf(client.apiRoot, DEMO_CLIENT.clientId),
    log: compactAt ? { compactAtBytes: Number(compactAt), compactFactor: 1.5 } : {},
  };
  const spots: SpotOutcome[] = [];
  await streamImport(
    inputs,
    { client, journal, concurrency: 4, retry, onStep: (step) => process.stdout.write(JSON.stringify(step) + '\n') },
    (position, outcome) => (spots[position] = outcome),
  );
  const outcome = { spots, totals: { done: spots.filter((spot) => spot?.status === 'done').length, of: inputs.length } };
  const failures = inputs
    .map((input, index) => outcome.spots[index] ?? { label: input.label, status: 'not settled' as const, reason: '' })
    .filter((spot) => spot.status !== 'done')
    .map((spot) => `${spot.label}: ${spot.status} ${spot.reason ?? ''}`);
  process.stdout.write(JSON.stringify({ totals: outcome.totals, failures }) + '\n');
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exit(2);
  },
);
