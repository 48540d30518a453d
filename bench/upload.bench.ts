// (b) A large upload through the core against curl -F to the same sandbox endpoint, with the
// core's peak memory growth (RSS sampled while it streams).
import { execFile } from 'node:child_process';
import { closeSync, openSync, ftruncateSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { Agent } from 'undici';
import { ServiceClient, TokenSource, defaultTokenUrl } from '../src/core';
import { DEMO_CLIENT } from '../src/sandbox/types';
import { median } from './sandboxProcess';

const run = promisify(execFile);

export interface UploadFigures {
  megabytes: number;
  coreMiBPerSecond: number;
  curlMiBPerSecond: number;
  coreVsCurl: number;
  peakGrowthMiB: number;
}

export async function benchUpload(baseUrl: string, filePath: string, bytes: number, rounds: number): Promise<UploadFigures> {
  // A sparse file: both sides read the same bytes from the page cache, so the network path is compared.
  const fd = openSync(filePath, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  const dispatcher = new Agent();
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(baseUrl), ...DEMO_CLIENT, dispatcher });
  const client = new ServiceClient({ baseUrl, tokens, dispatcher });
  const token = (await tokens.getToken()).value;
  const galleryId = (
    await client.importSpot({
      data: { type: 'spots', attributes: { topic_id: 1, source_id: 'bench-upload', latitude: 1, longitude: 1, state: 2, fld_1_1: null } },
    })
  ).pendingGalleries[0].galleryId;
  const url = `${baseUrl}/api/v2.4/galleries/${galleryId}/media`;
  const size = statSync(filePath).size;
  const core: number[] = [];
  const curl: number[] = [];
  const growth: number[] = [];
  for (let round = 0; round < rounds; round++) {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    let started = process.hrtime.bigint();
    await client.uploadMedia(galleryId, filePath, { onProgress: () => (peak = Math.max(peak, process.memoryUsage().rss)) });
    core.push(size / 1048576 / (Number(process.hrtime.bigint() - started) / 1e9));
    clearInterval(sampler);
    growth.push((peak - baseline) / 1048576);

    started = process.hrtime.bigint();
    await run('curl', [
      '-sS',
      '--fail',
      '-o',
      '/dev/null',
      '-H',
      `Authorization: Bearer ${token}`,
      '-H',
      'Expect:',
      '-F',
      `data[attributes][file]=@${filePath}`,
      url,
    ]);
    curl.push(size / 1048576 / (Number(process.hrtime.bigint() - started) / 1e9));
  }
  await dispatcher.close();
  return {
    megabytes: Math.round(size / 1048576),
    coreMiBPerSecond: median(core),
    curlMiBPerSecond: median(curl),
    coreVsCurl: median(core) / median(curl),
    peakGrowthMiB: median(growth),
  };
}
