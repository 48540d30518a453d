// (a) Bulk import throughput: the core's bulkImport at concurrency 8 against a minimal raw
// undici.request loop posting the same bodies with a ready token at the same concurrency, and
// against a sequential loop. Rounds alternate, and the ratio of medians is reported.
import { Agent } from 'undici';
import { ServiceClient, TokenSource, bulkImport, defaultTokenUrl, type BulkItem } from '../src/core';
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
  const core: number[] = [];
  const raw: number[] = [];
  const sequential: number[] = [];
  // Round 0 only warms up the JIT on both sides; the order of the variants rotates per round so
  // none of them always runs right after the sandbox's garbage collector was busy.
  for (let round = 0; round <= rounds; round++) {
    // Every variant creates its own new spots, so none of them gets the cheaper update path.
    const bodies = (variant: string) => Array.from({ length: spots }, (_, i) => JSON.stringify(spotBody(`bench-${variant}-${round}-${i}`)));
    const items: BulkItem[] = bodies('core').map((body, i) => ({ label: `${i}`, read: async () => body }));
    const rawBodies = bodies('raw');
    const sequentialBodies = bodies('sequential');
    const variants: Array<[number[], () => Promise<void>]> = [
      [core, async () => {
        const { results } = await bulkImport(items, client, { concurrency: CONCURRENCY });
        if (results.some((r) => !r.ok)) throw new Error('a bench import failed');
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
