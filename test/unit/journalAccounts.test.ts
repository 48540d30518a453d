import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { runImport } from '../../src/core/import';
import { JournalAccounts } from '../../src/core/journal/journalAccounts';
import { spot, useCoreWorkspace } from './helpers/coreSetup';

// The open journals belong to the front end that makes the JournalAccounts (a window, a command-line
// process), not to the process: runs sharing one share each account's lock and kept log; disposing
// it drops the kept logs and their timers, so nothing of a finished front end stays behind.
describe('journal accounts: an object a front end makes and disposes', () => {
  const workspace = useCoreWorkspace('spot-journal-accounts-');

  const documentNamed = (name: string) => {
    const path = join(workspace.dir, `${name}.spot.json`);
    fs.writeFileSync(path, JSON.stringify(spot(name)));
    return [{ path }];
  };
  const runWith = (accounts: JournalAccounts, name: string) =>
    runImport(
      documentNamed(name),
      workspace.workflowOptions({ journal: { ...workspace.workflowOptions().journal, dir: join(workspace.dir, 'journal-of-test'), accounts } }),
    );

  /** The kept logs' five-minute timers made while `run` runs, and which of them were cleared. */
  async function keptTimersDuring(run: () => Promise<unknown>): Promise<{ made: NodeJS.Timeout[]; cleared: Set<unknown> }> {
    const made: NodeJS.Timeout[] = [];
    const cleared = new Set<unknown>();
    const { setTimeout: set, clearTimeout: clear } = global;
    global.setTimeout = ((callback: () => void, ms?: number, ...rest: unknown[]) => {
      const timer = (set as (...args: unknown[]) => NodeJS.Timeout)(callback, ms, ...rest);
      if (ms === 5 * 60 * 1000) made.push(timer);
      return timer;
    }) as typeof global.setTimeout;
    global.clearTimeout = ((timer?: NodeJS.Timeout | string | number) => {
      cleared.add(timer);
      clear(timer);
    }) as typeof global.clearTimeout;
    try {
      await run();
    } finally {
      global.setTimeout = set;
      global.clearTimeout = clear;
    }
    return { made, cleared };
  }

  it('keeps the log of a finished run until disposed; disposing clears its timer and drops it', async () => {
    const accounts = new JournalAccounts();
    const timers = await keptTimersDuring(async () => {
      assert.equal((await runWith(accounts, 'kept-a')).spots[0].status, 'done');
      assert.equal(accounts.keptLogs, 1, 'the log is kept for the next run');
      accounts.dispose();
    });
    assert.equal(timers.made.length, 1, 'one timer for the kept log');
    assert.ok(timers.cleared.has(timers.made[0]), 'its timer is cleared by dispose');
    assert.equal(accounts.keptLogs, 0);
  });

  it('a run that ends after dispose keeps nothing', async () => {
    const accounts = new JournalAccounts();
    const running = runWith(accounts, 'late-a');
    accounts.dispose();
    assert.equal((await running).spots[0].status, 'done');
    assert.equal(accounts.keptLogs, 0);
  });

  it('two front ends do not meet: each reads the log itself, and each holds the lock in turn', async () => {
    const first = new JournalAccounts();
    const second = new JournalAccounts();
    try {
      assert.equal((await runWith(first, 'apart-a')).spots[0].status, 'done');
      const readFile = fs.promises.readFile;
      let reads = 0;
      fs.promises.readFile = ((file: string, ...rest: unknown[]) => {
        if (typeof file === 'string' && file.endsWith('journal.jsonl')) reads++;
        return (readFile as (...args: unknown[]) => unknown)(file, ...rest);
      }) as typeof readFile;
      try {
        const again = await runWith(second, 'apart-a');
        assert.equal(again.spots[0].imported, 'unchanged', 'the record is found in the file');
      } finally {
        fs.promises.readFile = readFile;
      }
      assert.equal(reads, 1, "the second front end read the log: it did not take the first one's kept index");
      assert.equal(first.keptLogs, 1);
    } finally {
      first.dispose();
      second.dispose();
    }
  });
});
