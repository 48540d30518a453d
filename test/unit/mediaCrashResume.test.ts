import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox';
import { mulberry32 } from '../../src/sandbox/faults';
import { DEMO_CLIENT, type RunningSandbox, type SandboxFaults, type SandboxOptions } from '../../src/sandbox/types';
import { assertFinished, mediaBytes, writeSpot, type SpotFixture } from './helpers/workflowFixtures';
import { replyLosingProxy, type ReplyVerdict, type WorkflowProxy } from './helpers/workflowProxy';

const CHILD = join(__dirname, 'helpers', 'workflowChild.js');
const SPOTS = 50;
/** Kills of the plain variant; the others, each adding one thing to the same job, are killed fewer times (KILLS_PER_VARIANT). */
const KILLS = 20;
const KILLS_PER_VARIANT = 12;
// Replies to uploads are held this long by the proxy: the sandbox has stored the file, the child
// has not heard of it yet. A kill in that window leaves exactly the uncertain upload to resolve.
const UPLOAD_REPLY_DELAY_MS = 25;

interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
}

/**
 * When a run is killed: `killAfterMs` after the child is ready, or (`afterSteps`) `ms` after it
 * reported its `steps`-th step, which ties the kill to the work still to do rather than to the
 * clock: a run with work left is always killed in the middle of it. 'onUploadReply': the moment
 * the proxy holds the reply to an upload the sandbox has stored (`atUploadReply`), so the run
 * leaves exactly the uncertain upload the next run must resolve, however fast or loaded the machine.
 */
type KillAt = number | { afterSteps: number; ms: number } | 'onUploadReply';

/** What the proxy calls when it holds an upload's reply: kills the child of an 'onUploadReply' run. */
let atUploadReply: (() => void) | undefined;

/** The proxy of these tests: holds each upload's reply `holdMs` (the sandbox has stored the file; the child has not heard). */
function uploadHoldingProxy(baseUrl: string, holdMs: number): Promise<WorkflowProxy> {
  return replyLosingProxy(baseUrl, async ({ method, path, status }): Promise<ReplyVerdict> => {
    if (method === 'POST' && /\/media$/.test(path)) {
      // Only a stored upload (not an injected 503) leaves the next run something to resolve.
      if (status >= 200 && status < 300) atUploadReply?.();
      await new Promise((resolve) => setTimeout(resolve, holdMs));
    }
    return 'pass';
  });
}

/** Runs the child; kills it with SIGKILL as `killAt` says, when given. Every wait is bounded. */
function runChild(baseUrl: string, folder: string, killAt?: KillAt, compactAtBytes?: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const args = [CHILD, baseUrl, folder, join(folder, '.spot-import'), ...(compactAtBytes ? [String(compactAtBytes)] : [])];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (killAt === undefined || killer || !out.includes('{"ready":true}')) return;
      if (killAt === 'onUploadReply') {
        atUploadReply = () => {
          atUploadReply = undefined;
          child.kill('SIGKILL');
        };
        killer = setTimeout(() => undefined, 0);
      } else if (typeof killAt === 'number') killer = setTimeout(() => child.kill('SIGKILL'), killAt);
      else if (out.split('\n').filter((line) => line.startsWith('{"label"')).length >= killAt.afterSteps)
        killer = setTimeout(() => child.kill('SIGKILL'), killAt.ms);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the workflow child did not finish within 60 s; stderr: ${err}`));
    }, 60_000);
    child.on('exit', (code, signal) => {
      atUploadReply = undefined;
      clearTimeout(killer);
      clearTimeout(limit);
      if (code === 2) return reject(new Error(`the workflow child crashed: ${err}`));
      resolve({ code, signal, lines: out.split('\n').filter(Boolean) });
    });
  });
}

describe('media workflow: killed at random moments and run again', function () {
  this.timeout(300_000);
  let sandbox: RunningSandbox | undefined;
  let proxy: WorkflowProxy | undefined;
  let folder: string | undefined;

  afterEach(async () => {
    await proxy?.close();
    await sandbox?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
    proxy = sandbox = folder = undefined;
  });

  const variants: Array<{ name: string; sandbox?: SandboxOptions; faults?: SandboxFaults; compactAtBytes?: number; seed: number; kills: number }> = [
    { name: 'plain', seed: 1, kills: KILLS },
    { name: 'with --rename-media', sandbox: { renameMedia: true }, seed: 2, kills: KILLS_PER_VARIANT },
    { name: 'with 10 % injected 503s and dropped connections', faults: { rate503: 0.05, rateDrop: 0.05, seed: 3 }, seed: 3, kills: KILLS_PER_VARIANT },
    // The journal's log compacted every few dozen kilobytes: kills land in compactions too.
    { name: 'with the journal compacted while it is written', compactAtBytes: 8 * 1024, seed: 4, kills: KILLS_PER_VARIANT },
  ];

  for (const variant of variants) {
    it(`${SPOTS} spots with 3 media each, ${variant.kills} SIGKILLs, then done: every file exactly once in name order, state 1, ids in every document (${variant.name})`, async () => {
      sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT], ...variant.sandbox });
      if (variant.faults) sandbox.setFaults(variant.faults);
      proxy = await uploadHoldingProxy(sandbox.baseUrl, UPLOAD_REPLY_DELAY_MS);
      folder = mkdtempSync(join(tmpdir(), 'spot-crash-'));
      const fixtures: SpotFixture[] = [];
      for (let index = 0; index < SPOTS; index++) {
        const name = `spot-${String(index).padStart(2, '0')}`;
        fixtures.push(
          index % 2 === 0
            ? writeSpot(folder, name, { fld_1_3: ['01.jpg', '02.jpg', '10.jpg'] }, { direct: true, size: 4096 })
            : writeSpot(folder, name, { fld_1_3: ['a.png', 'b.png'], fld_1_4: ['map.jpg'] }, { size: 4096 }),
        );
      }
      const random = mulberry32(variant.seed);
      const lines: string[] = [];
      let killed = 0;
      for (let round = 0; round < variant.kills; round++) {
        // Short enough that the job spans many rounds; a round whose run ends first is a plain rerun.
        // Every fourth run, the first among them, is killed while an upload's reply is held.
        const killAt = round % 4 === 0 ? 'onUploadReply' : Math.floor(random() * 400);
        const run = await runChild(proxy.url, folder, killAt, variant.compactAtBytes);
        if (run.signal === 'SIGKILL') killed++;
        lines.push(...run.lines);
      }
      let last: ChildRun | undefined;
      for (let attempt = 0; attempt < 3 && last?.code !== 0; attempt++) {
        last = await runChild(proxy.url, folder, undefined, variant.compactAtBytes);
        lines.push(...last.lines);
      }
      assert.equal(last?.code, 0, `the last run finished every spot: ${last?.lines.at(-1)}`);
      sandbox.setFaults({});
      assertFinished(sandbox, fixtures);

      const steps = lines.filter((line) => line.startsWith('{"label"')).map((line) => JSON.parse(line) as { step: string; message: string });
      const found = steps.filter((step) => step.step === 'resolve' && /holds it as media/.test(step.message)).length;
      if (process.env.SPOT_CRASH_DEBUG)
        console.log({ killed, found, absent: steps.filter((s) => s.step === 'resolve' && /did not reach/.test(s.message)).length });
      assert.ok(killed >= 5, `runs were killed mid-way (${killed} of ${variant.kills})`);
      if (variant.compactAtBytes) {
        // Far more was appended than the log holds: it was compacted while the runs were killed. This
        // shows compactions happened, not that a kill landed inside one (nothing here can tell).
        const log = readdirSync(join(folder, '.spot-import', 'journal')).map((account) =>
          join(folder!, '.spot-import', 'journal', account, 'journal.jsonl'),
        )[0];
        const appended = steps.filter((step) => step.step === 'upload' || step.step === 'import-pending' || step.step === 'import-final').length;
        const held = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
        if (process.env.SPOT_CRASH_DEBUG) console.log({ appended, held });
        assert.ok(held < appended / 2, `the log holds ${held} lines after ${appended} steps that each wrote one`);
      }
      assert.ok(found > 0, 'at least one upload whose reply was lost was found in its gallery rather than sent again');
    });
  }
  it('12 spots with 2 photos over 1 MiB each (hashed as they are sent, read once), 12 SIGKILLs, then done: every photo exactly once in name order, state 1, ids in every document', async () => {
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT], renameMedia: true });
    // Replies held longer: most kills land while an upload is stored and its reply still on its way.
    proxy = await uploadHoldingProxy(sandbox.baseUrl, 150);
    folder = mkdtempSync(join(tmpdir(), 'spot-crash-photos-'));
    const fixtures: SpotFixture[] = [];
    for (let index = 0; index < 12; index++) {
      const name = `photo-${String(index).padStart(2, '0')}`;
      const fixture = writeSpot(folder, name, { fld_1_3: ['01.jpg', '02.jpg'] }, { direct: index % 2 === 0, size: 16 });
      // Over the size held in memory, and of different sizes (files of one size are hashed by the check).
      for (const [file, entry] of fixture.media.fld_1_3.entries()) {
        entry.bytes = mediaBytes(`${name}/${entry.name}`, 1024 * 1024 + 1000 + 7 * (2 * index + file));
        writeFileSync(join(folder, `${name}.media`, ...(fixture.direct ? [] : ['fld_1_3']), entry.name), entry.bytes);
      }
      fixtures.push(fixture);
    }
    const random = mulberry32(5);
    const lines: string[] = [];
    let killed = 0;
    for (let round = 0; round < 12; round++) {
      // After the first to third step of the run, and up to 300 ms more (an upload's reply is held
      // 150 ms): killed by the clock alone (0 to 400 ms after start), the later runs, with little
      // work left, finished before the kill and too few were killed mid-way (CI: 3 of 12).
      const killAt = round % 4 === 0 ? 'onUploadReply' : { afterSteps: 1 + Math.floor(random() * 3), ms: Math.floor(random() * 300) };
      const run = await runChild(proxy.url, folder, killAt);
      if (run.signal === 'SIGKILL') killed++;
      lines.push(...run.lines);
    }
    let last: ChildRun | undefined;
    for (let attempt = 0; attempt < 3 && last?.code !== 0; attempt++) {
      last = await runChild(proxy.url, folder);
      lines.push(...last.lines);
    }
    assert.equal(last?.code, 0, `the last run finished every spot: ${last?.lines.at(-1)}`);
    assertFinished(sandbox, fixtures);
    const steps = lines.filter((line) => line.startsWith('{"label"')).map((line) => JSON.parse(line) as { step: string; message: string });
    const found = steps.filter((step) => step.step === 'resolve' && /holds it as media/.test(step.message)).length;
    if (process.env.SPOT_CRASH_DEBUG) console.log({ killed, found });
    assert.ok(killed >= 4, `runs were killed mid-way (${killed} of 12)`);
    assert.ok(found > 0, 'at least one photo whose reply was lost was found in its gallery by the hash its upload recorded, not sent again');
  });
});
