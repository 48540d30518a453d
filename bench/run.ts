// `npm run bench`: prints each figure as a ratio against a baseline measured in this same run,
// as medians over several alternating rounds (these machines are noisy). Sizes can be lowered
// for a quick look: BENCH_SPOTS=500 BENCH_UPLOAD_MB=128 BENCH_ROUNDS=3 BENCH_MEDIA_SPOTS=200 npm run bench.
// BENCH_ONLY=cli (or bulk, upload, media, topics; a comma list) runs only those parts; BENCH_CLI_DOCS and
// BENCH_CLI_MEMORY_DOCS size the command-line figures (default 10,000 and 100,000 documents);
// BENCH_ONLY=rows: a table's rows against the same spots as documents, sized by BENCH_ROWS and
// BENCH_ROWS_MEMORY (default 10,000 and 100,000 rows).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from './sandboxProcess';
import { benchBulkImport, printBulk } from './bulkImport.bench';
import { printCli } from './cli.bench';
import { benchTopicCheck, printTopicCheck } from './topicCheck.bench';
import { benchUpload } from './upload.bench';
import { RAW_LOOP_FLAG, benchCli, rawLoopProcess } from './cli.bench';
import { benchMediaWorkflow } from './mediaWorkflow.bench';
import { benchRows, printRows } from './rows.bench';

async function main(): Promise<void> {
  const spots = Number(process.env.BENCH_SPOTS ?? 2000);
  const uploadMb = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const only = new Set((process.env.BENCH_ONLY ?? 'bulk,upload,media,topics,cli,rows').split(',').map((part) => part.trim()));
  const distDir = __dirname.endsWith('bench') ? join(__dirname, '..') : __dirname;
  const sandbox = await startSandboxProcess(distDir);
  const scratch = mkdtempSync(join(tmpdir(), 'spot-bench-'));
  try {
    console.log(`Sandbox in its own process at ${sandbox.baseUrl}; medians of ${rounds} rounds.`);
    if (only.has('bulk')) printBulk(await benchBulkImport(sandbox.baseUrl, spots, rounds, sandbox.cpuMs));
    if (only.has('upload')) {
      const upload = await benchUpload(sandbox.baseUrl, join(scratch, 'upload.bin'), uploadMb * 1048576, Math.min(rounds, 3));
      console.log(`(b) upload of ${upload.megabytes} MiB`);
      console.log(`    core uploadMedia     ${upload.coreMiBPerSecond.toFixed(0)} MiB/s`);
      console.log(`    curl -F              ${upload.curlMiBPerSecond.toFixed(0)} MiB/s`);
      console.log(`    core / curl          ${upload.coreVsCurl.toFixed(2)}  (goal ≥ 0.80) ${upload.coreVsCurl >= 0.8 ? 'met' : 'NOT MET'}`);
      console.log(`    peak memory growth   ${upload.peakGrowthMiB.toFixed(1)} MiB  (goal < 64) ${upload.peakGrowthMiB < 64 ? 'met' : 'NOT MET'}`);
    }
    if (only.has('media')) {
      const media = await benchMediaWorkflow(distDir, scratch, Number(process.env.BENCH_MEDIA_SPOTS ?? 1000), 200 * 1024, Math.min(rounds, 3));
      console.log(`(c) media workflow: ${media.spots} spots with 3 media of ${media.fileKiB} KiB at concurrency 4`);
      console.log(`    runMediaWorkflow     ${media.workflowSpotsPerSecond.toFixed(1)} spots/s`);
      console.log(`    hand-written loop    ${media.loopSpotsPerSecond.toFixed(1)} spots/s`);
      console.log(`    ServiceClient loop   ${media.clientSpotsPerSecond.toFixed(1)} spots/s  (same calls through the core client, no workflow)`);
      console.log(`    workflow / loop      ${media.ratio.toFixed(2)}  (median per round ${media.perRoundRatio.toFixed(2)}; goal ≥ 0.85) ${media.ratio >= 0.85 ? 'met' : 'NOT MET'}`);
      console.log(`    client / loop        ${media.clientRatio.toFixed(2)}`);
      const cpu = media.cpuMsPerSpot;
      console.log(`    CPU per spot         workflow ${cpu.workflow.toFixed(1)} ms, client loop ${cpu.client.toFixed(1)} ms, hand-written loop ${cpu.loop.toFixed(1)} ms`);
      const sandboxCpu = media.sandboxCpuMsPerSpot;
      if (sandboxCpu) console.log(`    sandbox CPU per spot while workflow ${sandboxCpu.workflow.toFixed(1)} ms, client loop ${sandboxCpu.client.toFixed(1)} ms, hand-written loop ${sandboxCpu.loop.toFixed(1)} ms`);
      console.log(`    memory growth        ${media.memoryGrowthMiB.toFixed(1)} MiB median, ${media.maxMemoryGrowthMiB.toFixed(1)} MiB max  (goal < 100) ${media.maxMemoryGrowthMiB < 100 ? 'met' : 'NOT MET'}`);
    }
    if (only.has('topics')) printTopicCheck(benchTopicCheck(Math.max(rounds, 15)));
    if (only.has('cli')) {
      const cliDocs = Number(process.env.BENCH_CLI_DOCS ?? 10_000);
      const memoryDocs = Number(process.env.BENCH_CLI_MEMORY_DOCS ?? 100_000);
      printCli(await benchCli(sandbox.baseUrl, distDir, scratch, cliDocs, rounds, memoryDocs, sandbox.cpuMs));
    }
    if (only.has('rows')) {
      // Each import against a sandbox process of its own (the one above stays idle).
      printRows(await benchRows(distDir, scratch, Number(process.env.BENCH_ROWS ?? 10_000), rounds, Number(process.env.BENCH_ROWS_MEMORY ?? 100_000)));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await sandbox.stop();
  }
}

(process.argv[2] === RAW_LOOP_FLAG ? rawLoopProcess(process.argv.slice(3)) : main()).catch((error: Error) => {
  console.error(`Benchmark failed: ${error.message}`);
  process.exit(1);
});
