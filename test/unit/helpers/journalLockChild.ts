// A child process for the lock race test: opens an account journal (which takes its run.lock) at
// an instant the test names, says whether it got it, and holds it until the test says to give it
// back (once every child has answered: a holder that let go early would let a late child in).
// Usage: node journalLockChild.js <journalDir>; prints READY, then reads the start instant (epoch
// ms) and later "release" from stdin.
import { createInterface } from 'node:readline';
import { ImportJournal } from '../../../src/core/journal/journal';
import { testAccounts } from './testAccounts';

async function main(): Promise<void> {
  const [journalDir] = process.argv.slice(2);
  const journal = new ImportJournal(journalDir, { serviceUrl: 'https://service.example', clientId: 'client' }, testAccounts);
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  process.stdout.write('READY\n');
  const startAt = Number((await lines.next()).value);
  // Every child starts its attempt at the same instant, so their takeovers overlap.
  while (Date.now() < startAt) {
    // spin: a timer would let the children drift apart by a scheduler tick
  }
  try {
    const spot = await journal.open(`spot-${process.pid}`, '/doc.spot.json');
    process.stdout.write('GOT\n');
    await lines.next();
    spot.release();
    await journal.close();
  } catch (error) {
    process.stdout.write(`REFUSED ${(error as Error).name}\n`);
  }
  process.exit(0);
}

void main();
