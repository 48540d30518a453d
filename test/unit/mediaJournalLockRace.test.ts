// A crash leaves the account's run.lock behind, naming a process that is gone; the next run takes
// it over. When several runs resume at once (the command line and the editor, say), exactly one
// may get it: two holders would share the log and upload into the same galleries, and a file
// whose upload is in flight in one would be sent again by the other.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaJournal } from '../../src/core/media/journal';

const CHILD = join(__dirname, 'helpers', 'journalLockChild.js');

/** The pid of a process that has just ended: what a crash leaves in the lock. */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
}

function runChild(journalDir: string, startAt: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, journalDir, String(startAt)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(output.trim()));
  });
}

describe('media journal: a stale run lock taken over by runs that start together', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('lets exactly one of three runs have it, every time', async () => {
    const trials = 12;
    const outcomes: string[][] = [];
    for (let trial = 0; trial < trials; trial++) {
      const dir = mkdtempSync(join(tmpdir(), 'spot-lock-race-'));
      dirs.push(dir);
      const journal = new MediaJournal(dir, { serviceUrl: 'https://service.example', clientId: 'client' });
      mkdirSync(journal.accountDir, { recursive: true });
      const lock = join(journal.accountDir, 'run.lock');
      symlinkSync(JSON.stringify({ pid: deadPid(), host: hostname() }), lock);
      const startAt = Date.now() + 400;
      outcomes.push(await Promise.all([runChild(dir, startAt), runChild(dir, startAt), runChild(dir, startAt)]));
      assert.throws(() => readlinkSync(lock), /ENOENT/, 'the lock is given back once the run that had it is done');
    }
    const winners = outcomes.map((trial) => trial.filter((line) => line === 'GOT').length);
    assert.deepEqual(winners, Array(trials).fill(1), `runs that got the lock, per trial: ${JSON.stringify(outcomes)}`);
    for (const trial of outcomes) for (const line of trial) assert.match(line, /^(GOT|REFUSED JournalLockedError)$/);
  });
});
