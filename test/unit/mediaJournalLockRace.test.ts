// A crash leaves the account's run.lock behind, naming a process that is gone; the next run takes
// it over. When several runs resume at once (the command line and the editor, say), exactly one
// may get it: two holders would share the log and upload into the same galleries, and a file
// whose upload is in flight in one would be sent again by the other.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, promises as fsPromises, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportJournal } from '../../src/core/journal/journal';
import { testAccounts } from './helpers/testAccounts';

const CHILD = join(__dirname, 'helpers', 'journalLockChild.js');

/** The pid of a process that has just ended: what a crash leaves in the lock. */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
}

interface Child {
  /** Resolves with the child's verdict line (GOT, or REFUSED and the error's name). */
  verdict: Promise<string>;
  start(at: number): void;
  release(): void;
  exited: Promise<void>;
}

/** A child, resolved once it is loaded and waits for its start instant. */
function startChild(journalDir: string): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, journalDir], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.on('error', () => undefined); // a child that was refused has exited: nothing to release
    const lines: string[] = [];
    let onVerdict: (line: string) => void = () => undefined;
    const verdict = new Promise<string>((settle) => (onVerdict = settle));
    const exited = new Promise<void>((settle) => child.on('exit', () => settle()));
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        lines.push(line);
        if (line === 'READY') resolve({ verdict, start: (at) => child.stdin.write(`${at}\n`), release: () => child.stdin.end('release\n'), exited });
        else onVerdict(line);
      }
    });
    child.on('error', reject);
    void exited.then(() => {
      onVerdict(lines.find((line) => line !== 'READY') ?? 'EXITED without a verdict');
      reject(new Error('the child exited before it was ready'));
    });
  });
}

/**
 * Three children, loaded first (on a busy machine loading takes long), then started at one
 * instant; the one that got the lock holds it until all three have answered.
 */
async function race(journalDir: string): Promise<string[]> {
  const children = await Promise.all([startChild(journalDir), startChild(journalDir), startChild(journalDir)]);
  const startAt = Date.now() + 100;
  for (const child of children) child.start(startAt);
  const verdicts = await Promise.all(children.map((child) => child.verdict));
  for (const child of children) child.release();
  await Promise.all(children.map((child) => child.exited));
  return verdicts;
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
      const journal = new ImportJournal(dir, { serviceUrl: 'https://service.example', clientId: 'client' }, testAccounts);
      mkdirSync(journal.accountDir, { recursive: true });
      const lock = join(journal.accountDir, 'run.lock');
      symlinkSync(JSON.stringify({ pid: deadPid(), host: hostname() }), lock);
      outcomes.push(await race(dir));
      assert.throws(() => readlinkSync(lock), /ENOENT/, 'the lock is given back once the run that had it is done');
    }
    const winners = outcomes.map((trial) => trial.filter((line) => line === 'GOT').length);
    assert.deepEqual(winners, Array(trials).fill(1), `runs that got the lock, per trial: ${JSON.stringify(outcomes)}`);
    for (const trial of outcomes) for (const line of trial) assert.match(line, /^(GOT|REFUSED JournalLockedError)$/);
  });
});

// Two runs of one process, one after the other: the lock file names the process, so the second
// must not take it while the first is still giving it back.
describe('media journal: a run lock handed from one run of this process to the next', () => {
  it('a run that starts in this process while the last one gives the journal back keeps its lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spot-journal-handover-'));
    const account = { serviceUrl: 'http://127.0.0.1:1', clientId: 'handover' };
    const open = fsPromises.open;
    try {
      const first = new ImportJournal(dir, account, testAccounts);
      const spot = await first.open('handover-1', '/handover-1.spot.json');
      await spot.save();
      spot.release();
      const lock = join(first.accountDir, 'run.lock');
      // The lock is a symbolic link whose target is its content: lstat, not exists.
      const held = () => lstatSync(lock, { throwIfNoEntry: false }) !== undefined;
      // The first run's giving back (it looks at its log once more) takes a while, and the second
      // run acquires meanwhile: before, it took the lock over (it names this process), and the
      // first run's release then removed the second run's lock.
      let slowed: () => void = () => undefined;
      const looking = new Promise<void>((resolve) => (slowed = resolve));
      fsPromises.open = (async (...args: Parameters<typeof open>) => {
        if (String(args[0]).endsWith('journal.jsonl')) {
          slowed();
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return open(...args);
      }) as typeof open;
      const closing = first.close();
      const lookedAt = await Promise.race([looking.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000))]);
      assert.ok(lookedAt, 'the give-back looks at the log through fs.promises.open (what this test slows down)');
      const second = new ImportJournal(dir, account, testAccounts);
      await second.acquire();
      await closing;
      fsPromises.open = open;
      assert.ok(held(), 'the second run still holds the lock the first gave back');
      await second.close();
      assert.equal(held(), false);
    } finally {
      fsPromises.open = open;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
