import * as assert from 'node:assert/strict';
import { lstatSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importOneSpot, journalAccountOf, serviceUrlOf, streamImport, type SpotInput, type SpotOutcome } from '../../src/core/import';
import { ImportJournal, defaultJournalDir } from '../../src/core/journal';
import { checkSpotMedia } from '../../src/core/media';
import { DEMO_CLIENT } from '../../src/sandbox/types';
import { useCoreWorkspace } from './helpers/coreSetup';
import { assertFinished, writeSpot, type SpotFixture } from './helpers/workflowFixtures';
import { testAccounts } from './helpers/testAccounts';

// The caller's inputs can fail (a folder walk hits an unreadable folder): the run stops taking
// inputs, but the spots already in flight finish under the account's lock before the error is
// thrown. Closing the journal under them would let another process take the lock while they
// still upload.
describe('media workflow: an input source that throws', () => {
  const workspace = useCoreWorkspace('spot-inputs-');

  it('lets the spots in flight finish while the journal is locked, then throws the error', async () => {
    const fixtures: SpotFixture[] = ['one', 'two'].map((name) => writeSpot(workspace.dir, name, { fld_1_3: ['a.jpg', 'b.jpg', 'c.jpg'] }, { direct: true }));
    let settledAtThrow: number | undefined;
    function* inputs(): Generator<SpotInput> {
      for (const fixture of fixtures) yield { path: fixture.path };
      settledAtThrow = settled.length;
      throw new Error('EACCES: the next folder cannot be read');
    }
    const settled: Array<{ outcome: SpotOutcome; locked: boolean }> = [];
    const journalDir = defaultJournalDir(workspace.dir);
    const lock = join(
      new ImportJournal(journalDir, { serviceUrl: serviceUrlOf(workspace.setup.client.apiRoot), clientId: DEMO_CLIENT.clientId }, testAccounts).accountDir,
      'run.lock',
    );
    // The lock is a symbolic link whose target is its owner (see journal.ts): look at the link itself.
    const locked = () => lstatSync(lock, { throwIfNoEntry: false }) !== undefined;
    await assert.rejects(
      streamImport(
        inputs(),
        {
          client: workspace.setup.client,
          journal: { accounts: testAccounts, dir: journalDir, account: journalAccountOf(workspace.setup.client.apiRoot, DEMO_CLIENT.clientId) },
          concurrency: 2,
        },
        (_position, outcome) => settled.push({ outcome, locked: locked() }),
      ),
      /EACCES: the next folder cannot be read/,
    );
    assert.ok(settledAtThrow !== undefined && settledAtThrow < 2, `a spot was still in flight when the input failed (settled then: ${settledAtThrow})`);
    assert.deepEqual(
      settled.map((s) => [s.outcome.status, s.locked]),
      [
        ['done', true],
        ['done', true],
      ],
      'both spots finished, each while the run still held the lock',
    );
    assert.ok(!locked(), 'the lock is released at the end');
    assertFinished(workspace.setup.sandbox, fixtures);
  });

  it('a source that fails before its first input leaves the journal unlocked', async () => {
    const journalDir = defaultJournalDir(workspace.dir);
    const account = journalAccountOf(workspace.setup.client.apiRoot, DEMO_CLIENT.clientId);
    const source = {
      spots(): Iterable<SpotInput> {
        throw new Error('ENOENT: the folder is gone');
      },
    };
    await assert.rejects(
      streamImport(source, { client: workspace.setup.client, journal: { accounts: testAccounts, dir: journalDir, account }, media: false }),
      /the folder is gone/,
    );
    const lock = join(new ImportJournal(journalDir, account, testAccounts).accountDir, 'run.lock');
    assert.equal(lstatSync(lock, { throwIfNoEntry: false }), undefined, 'the run lock is released');
  });

  it('never leaves the failed input unhandled while it waits for a worker (a process without a handler would end on it)', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      for (const concurrency of [1, 2]) {
        for (const kind of ['sync', 'async'] as const) {
          const path = join(workspace.dir, `plain-${concurrency}-${kind}.spot.json`);
          writeFileSync(
            path,
            JSON.stringify({
              data: { type: 'spots', attributes: { topic_id: 1, source_id: `plain-${concurrency}-${kind}`, latitude: 48.2, longitude: 16.37 } },
            }),
          );
          function* syncInputs(): Generator<SpotInput> {
            yield { path };
            throw new Error(`the ${kind} source broke`);
          }
          async function* asyncInputs(): AsyncGenerator<SpotInput> {
            yield* syncInputs();
          }
          const journal = {
            accounts: testAccounts,
            dir: defaultJournalDir(workspace.dir),
            account: journalAccountOf(workspace.setup.client.apiRoot, DEMO_CLIENT.clientId),
          };
          await assert.rejects(
            streamImport(kind === 'sync' ? syncInputs() : asyncInputs(), { client: workspace.setup.client, journal, media: false, concurrency }),
            new RegExp(`the ${kind} source broke`),
          );
          // A rejection is reported unhandled once the microtasks of its turn have run.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      process.off('unhandledRejection', listener);
    }
    assert.deepEqual(unhandled.map(String), []);
  });

  it("a caller's settled callback that throws: no spot is started after it, the spots under way finish, the journal is given back, and the run throws that error, never an unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const count = 200;
      const inputs = Array.from({ length: count }, (_, i) => ({
        path: join(workspace.dir, `settled-${i}.spot.json`),
        text: JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: `settled-${i}`, latitude: 48.2, longitude: 16.37 } } }),
        media: false as const,
      }));
      const journalDir = defaultJournalDir(workspace.dir);
      const account = journalAccountOf(workspace.setup.client.apiRoot, DEMO_CLIENT.clientId);
      const lock = join(new ImportJournal(journalDir, account, testAccounts).accountDir, 'run.lock');
      const settled: SpotOutcome[] = [];
      await assert.rejects(
        streamImport(
          inputs,
          { client: workspace.setup.client, journal: { accounts: testAccounts, dir: journalDir, account }, concurrency: 2 },
          (_position, outcome) => {
            settled.push(outcome);
            // The command line's report writes a line here: a write that fails (a closed pipe) throws.
            if (settled.length === 2) throw new Error('the report could not be written');
          },
        ),
        /the report could not be written/,
      );
      await new Promise((resolve) => setImmediate(resolve));
      const sent = settled.filter((outcome) => outcome.sent).length;
      // Each worker finishes the spot it is sending; the journal writes lines every 10 ms, so a
      // few spots more than two may have gone out before the second one was settled.
      assert.ok(sent >= 2 && sent < count / 2, `the run stopped starting spots (${sent} of ${count} sent)`);
      assert.ok(
        settled.filter((outcome) => outcome.sent).every((outcome) => outcome.status === 'done'),
        'the spots under way finished',
      );
      assert.equal(lstatSync(lock, { throwIfNoEntry: false }), undefined, "the journal's lock is given back");
    } finally {
      process.off('unhandledRejection', listener);
    }
    assert.deepEqual(unhandled.map(String), []);
  });
});

// The editor checks a document with its media as it shows the problems, and hands that check to
// the engine: parsed and hashed once per run. The engine sends what the check hashed, and a file
// that is no longer that content is stopped before its end rather than hashed again.
describe('import engine: a check handed in by the caller', () => {
  const workspace = useCoreWorkspace('spot-check-in-');

  it('is taken as it is: the files are not hashed again, so a file edited since is refused as changed', async () => {
    const fixture = writeSpot(workspace.dir, 'checked', { fld_1_3: ['a.jpg', 'b.jpg'] }, { direct: true, size: 2 * 1024 * 1024 });
    const text = readFileSync(fixture.path, 'utf8');
    const check = await checkSpotMedia(fixture.path, text);
    assert.ok(check.ok, JSON.stringify(check.problems));
    // The same size, another content: only a second hash would notice.
    const b = join(workspace.dir, 'checked.media', 'b.jpg');
    writeFileSync(b, Buffer.alloc(statSync(b).size, 7));
    const spot = await importOneSpot({ path: fixture.path, check }, workspace.workflowOptions());
    assert.equal(spot.status, 'failed');
    assert.equal(spot.failure?.kind, 'uploads');
    assert.match(spot.galleries[0].failed[0]?.reason ?? '', /changed/);
    assert.deepEqual(
      [spot.galleries[0].uploaded, workspace.setup.sandbox.counters.imports],
      [1, 1],
      'a.jpg arrived; the state 2 import went out, not the final one',
    );
  });
});
