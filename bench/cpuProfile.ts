// SPOT_BENCH_PROFILE=<folder> (`npm run bench:activation`): a V8 CPU profile of what is measured,
// taken in the extension host itself through its inspector, written as <name>.cpuprofile (open it
// in Chromium's DevTools, or summarise it with scripts/profileSummary.js). Profiling slows what it
// measures: the figures of a profiled run are not the bench's.
import * as fs from 'fs';
import * as inspector from 'inspector';
import * as path from 'path';

function post<T>(session: inspector.Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))));
}

/** Runs work under the profiler when SPOT_BENCH_PROFILE names a folder; otherwise just runs it. */
export async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  const folder = process.env.SPOT_BENCH_PROFILE;
  if (!folder) return work();
  const session = new inspector.Session();
  session.connect();
  try {
    await post(session, 'Profiler.enable');
    // 100 µs: activation is tens of milliseconds, and the default 1 ms would give a few dozen samples.
    await post(session, 'Profiler.setSamplingInterval', { interval: 100 });
    await post(session, 'Profiler.start');
    const result = await work();
    const { profile } = await post<{ profile: object }>(session, 'Profiler.stop');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `${name}.cpuprofile`), JSON.stringify(profile));
    return result;
  } finally {
    session.disconnect();
  }
}
