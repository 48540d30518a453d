// `npm run bench`: prints each figure as a ratio against a baseline measured in this same run,
// as medians over several alternating rounds (these machines are noisy). Sizes can be lowered
// for a quick look: BENCH_SPOTS=500 BENCH_UPLOAD_MB=128 BENCH_ROUNDS=3 BENCH_MEDIA_SPOTS=200 npm run bench.
// BENCH_ONLY=cli (or bulk, upload, media, topics; a comma list) runs only those parts; BENCH_CLI_DOCS and
// BENCH_CLI_MEMORY_DOCS size the command-line figures (default 10,000 and 100,000 documents);
// BENCH_ONLY=rows: a table's rows against the same spots as documents, sized by BENCH_ROWS and
// BENCH_ROWS_MEMORY (default 10,000 and 100,000 rows). BENCH_ONLY=media runs (c) on loopback
// (BENCH_MEDIA_SPOTS, default 1,000) and with the sandbox's added latency (BENCH_MEDIA_LATENCIES,
// default 0,20,50 ms; BENCH_MEDIA_LATENCY_SPOTS, default 200). BENCH_ONLY=photos: (f), spots with
// 3 photos of 3 to 5 MB against curl -F (BENCH_PHOTOS_SPOTS, default 50). BENCH_ONLY=map: (h), the
// map's marker preparation and grouping for BENCH_MAP_SPOTS (default 10,000) spots.
// BENCH_ONLY=bulk: (a), after BENCH_BULK_WARMUP rounds that only warm up (default 3, see bulkImport.bench.ts).
// BENCH_ONLY=workbook: (i), an Excel workbook against the same rows as a CSV, sized as rows (BENCH_ROWS, BENCH_ROWS_MEMORY).
// BENCH_ONLY=web: (j), rows naming 3 photos of 3 to 5 MB each by web address against curl -o then curl -F (BENCH_WEB_ROWS, default 100).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from './sandboxProcess';
import { benchBulkImport, printBulk } from './bulkImport.bench';
import { printCli } from './cli.bench';
import { benchTopicCheck, printTopicCheck } from './topicCheck.bench';
import { benchUpload } from './upload.bench';
import { RAW_LOOP_FLAG, benchCli, rawLoopProcess } from './cli.bench';
import { benchMediaWorkflow, printMediaWorkflow } from './mediaWorkflow.bench';
import { benchPhotos, printPhotos } from './photos.bench';
import { benchRows, printRows } from './rows.bench';
import { benchMap, printMap } from './map.bench';
import { benchWorkbook, printWorkbook } from './workbook.bench';
import { benchWebPhotos, printWebPhotos } from './webPhotos.bench';

async function main(): Promise<void> {
  const spots = Number(process.env.BENCH_SPOTS ?? 2000);
  const uploadMb = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const only = new Set((process.env.BENCH_ONLY ?? 'bulk,upload,media,photos,topics,cli,rows,map,workbook,web').split(',').map((part) => part.trim()));
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
      // On loopback (no goal for the throughput: both processes share the cores), then a service
      // a realistic distance away (goal ≥ 0.95), fewer spots: each takes seven round trips.
      const spotsAt = (latencyMs: number) =>
        Number((latencyMs > 0 ? process.env.BENCH_MEDIA_LATENCY_SPOTS : process.env.BENCH_MEDIA_SPOTS) ?? (latencyMs > 0 ? 200 : 1000));
      for (const latencyMs of (process.env.BENCH_MEDIA_LATENCIES ?? '0,20,50').split(',').map(Number)) {
        const media = await benchMediaWorkflow(distDir, scratch, {
          spots: spotsAt(latencyMs),
          fileBytes: 200 * 1024,
          rounds: Math.min(rounds, 3),
          latencyMs,
          sides: latencyMs > 0 ? ['workflow', 'loop'] : undefined,
        });
        printMediaWorkflow(media, latencyMs > 0 ? 0.95 : undefined);
      }
    }
    if (only.has('photos')) printPhotos(await benchPhotos(distDir, scratch, Number(process.env.BENCH_PHOTOS_SPOTS ?? 50), Math.min(rounds, 3)));
    if (only.has('topics')) printTopicCheck(benchTopicCheck(Math.max(rounds, 15)));
    if (only.has('cli')) {
      const cliDocs = Number(process.env.BENCH_CLI_DOCS ?? 10_000);
      const memoryDocs = Number(process.env.BENCH_CLI_MEMORY_DOCS ?? 100_000);
      printCli(await benchCli(sandbox.baseUrl, distDir, scratch, cliDocs, rounds, memoryDocs, sandbox.cpuMs));
    }
    if (only.has('map')) printMap(benchMap(Number(process.env.BENCH_MAP_SPOTS ?? 10_000), Math.max(rounds, 7)));
    if (only.has('rows')) {
      // Each import against a sandbox process of its own (the one above stays idle).
      printRows(await benchRows(distDir, scratch, Number(process.env.BENCH_ROWS ?? 10_000), rounds, Number(process.env.BENCH_ROWS_MEMORY ?? 100_000)));
    }
    if (only.has('web')) printWebPhotos(await benchWebPhotos(distDir, scratch, Number(process.env.BENCH_WEB_ROWS ?? 100), Math.min(rounds, 3)));
    if (only.has('workbook')) {
      printWorkbook(await benchWorkbook(distDir, scratch, Number(process.env.BENCH_ROWS ?? 10_000), rounds, Number(process.env.BENCH_ROWS_MEMORY ?? 100_000)));
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
