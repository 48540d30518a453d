// (a) Bulk import throughput: the core's import engine on documents without media (what Import
// Folder and spot-import import send for a folder of spot documents, journal included) at
// concurrency 8, against a minimal raw undici.request loop posting the same bodies with a ready
// token at the same concurrency, and against a sequential loop. Rounds alternate, and the ratio of
// medians is reported.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { ServiceClient, TokenSource, defaultTokenUrl, journalAccountOf, runMediaWorkflow, type SpotInput } from '../src/core';
import { DEMO_CLIENT } from '../src/sandbox/types';
import { rawImportLoop } from './rawImportLoop';
import { median } from './sandboxProcess';

const CONCURRENCY = 8;

export interface BulkFigures {
  spots: number;
  coreSpotsPerSecond: number;
  rawSpotsPerSecond: number;
  sequentialSpotsPerSecond: number;
  coreVsRaw: number;
  coreVsSequential: number;
}

export async function benchBulkImport(baseUrl: string, spots: number, rounds: number): Promise<BulkFigures> {
  const dispatcher = new Agent({ connections: CONCURRENCY * 2 });
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(baseUrl), ...DEMO_CLIENT, dispatcher });
  const client = new ServiceClient({ baseUrl, tokens, dispatcher });
  const token = (await tokens.getToken()).value;
  const journalDir = mkdtempSync(join(tmpdir(), 'bench-bulk-'));
  const journal = { dir: journalDir, account: journalAccountOf(client.apiRoot, DEMO_CLIENT.clientId) };
  const core: number[] = [];
  const raw: number[] = [];
  const sequential: number[] = [];
  // Round 0 only warms up the JIT on both sides; the order of the variants rotates per round so
  // none of them always runs right after the sandbox's garbage collector was busy.
  for (let round = 0; round <= rounds; round++) {
    // Every variant creates its own new spots, so none of them gets the cheaper update path.
    const bodies = (variant: string) => Array.from({ length: spots }, (_, i) => JSON.stringify(spotBody(`bench-${variant}-${round}-${i}`)));
    const items: SpotInput[] = bodies('core').map((body, i) => ({ path: `${i}.spot.json`, text: body, media: false }));
    const rawBodies = bodies('raw');
    const sequentialBodies = bodies('sequential');
    const variants: Array<[number[], () => Promise<void>]> = [
      [core, async () => {
        const { spots } = await runMediaWorkflow(items, { client, journal, concurrency: CONCURRENCY, media: false });
        if (spots.some((spot) => spot.status !== 'done')) throw new Error('a bench import failed');
      }],
      [raw, () => rawLoop(baseUrl, token, rawBodies, CONCURRENCY, dispatcher)],
      [sequential, () => rawLoop(baseUrl, token, sequentialBodies, 1, dispatcher)],
    ];
    for (let v = 0; v < variants.length; v++) {
      const [figures, run] = variants[(v + round) % variants.length];
      const speed = await timed(spots, run);
      if (round > 0) figures.push(speed);
    }
  }
  await dispatcher.close();
  rmSync(journalDir, { recursive: true, force: true });
  const figures = { core: median(core), raw: median(raw), sequential: median(sequential) };
  return {
    spots,
    coreSpotsPerSecond: figures.core,
    rawSpotsPerSecond: figures.raw,
    sequentialSpotsPerSecond: figures.sequential,
    coreVsRaw: figures.core / figures.raw,
    coreVsSequential: figures.core / figures.sequential,
  };
}

function rawLoop(baseUrl: string, token: string, bodies: string[], concurrency: number, dispatcher: Agent): Promise<void> {
  return rawImportLoop(baseUrl, token, bodies.length, (index) => bodies[index], concurrency, dispatcher);
}

async function timed(count: number, run: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return count / seconds;
}

function spotBody(sourceId: string) {
  return { data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 48.2, longitude: 16.3, fld_1_3: 'bench' } } };
}
