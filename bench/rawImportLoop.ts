// The baselines' import loop: plain undici.request posts with a ready token, `concurrency` at a
// time, each body taken as a worker is free (bulk import hands in strings, the command line's
// baseline reads each file then). No validation, no retries, no journal: the floor to compare with.
import { request, type Agent } from 'undici';

export async function rawImportLoop(
  baseUrl: string,
  token: string,
  count: number,
  body: (index: number) => string | Promise<string>,
  concurrency: number,
  dispatcher: Agent,
): Promise<void> {
  let next = 0;
  const url = `${baseUrl}/api/v2.4/spots/import`;
  const worker = async () => {
    while (next < count) {
      const text = await body(next++);
      const response = await request(url, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/vnd.api+json' },
        body: text,
      });
      await response.body.json();
      if (response.statusCode !== 200) throw new Error(`raw import got ${response.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
