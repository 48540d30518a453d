// A child process for the lock race test: opens an account journal (which takes its run.lock) at
// a given instant, says whether it got it, and holds it a while before giving it back.
// Usage: node journalLockChild.js <journalDir> <startAtEpochMs>
import { MediaJournal } from '../../../src/core/media/journal';

async function main(): Promise<void> {
  const [journalDir, startAt] = process.argv.slice(2);
  const journal = new MediaJournal(journalDir, { serviceUrl: 'https://service.example', clientId: 'client' });
  // Every child starts its attempt at the same instant, so their takeovers overlap.
  while (Date.now() < Number(startAt)) {
    // spin: a timer would let the children drift apart by a scheduler tick
  }
  try {
    const spot = await journal.open(`spot-${process.pid}`, '/doc.spot.json');
    process.stdout.write('GOT\n');
    await new Promise((resolve) => setTimeout(resolve, 400));
    spot.release();
    await journal.close();
  } catch (error) {
    process.stdout.write(`REFUSED ${(error as Error).name}\n`);
  }
}

void main();
