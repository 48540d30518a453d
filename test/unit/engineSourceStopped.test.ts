import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { CancelledError } from '../../src/core/api/errors';
import { streamImport, type SpotInput } from '../../src/core/import';
import { spot, useCoreWorkspace } from './helpers/coreSetup';

// A source that honours the run's signal (a table's rows stop with a CancelledError once it is
// aborted, as SourceTable promises) stops with the run: that is the run's stop, not a failure of
// the source. A CLI import whose first token could not be had aborted its run signal; when its
// table had not been read to the end yet, the rows' CancelledError came out of the engine and the
// command said "Interrupted." (exit 130) instead of why nothing was sent (a run under load, once).
describe('import engine: a source stopped by the run signal', () => {
  const workspace = useCoreWorkspace('spot-source-stopped-');

  it('ends the run as stopped, with what settled before, when the source throws a cancellation after the signal fired', async () => {
    const controller = new AbortController();
    const paths = ['s-1', 's-2'].map((name) => {
      const path = join(workspace.dir, `${name}.spot.json`);
      fs.writeFileSync(path, JSON.stringify(spot(name)));
      return path;
    });
    async function* source(): AsyncGenerator<SpotInput> {
      yield { path: paths[0] };
      // Asked for the next spot by a worker that waits for it: the run's signal fires meanwhile
      // (a first token refused, Ctrl-C), and the source stops as a table's rows do.
      await new Promise((resolve) => controller.signal.addEventListener('abort', resolve, { once: true }));
      throw new CancelledError();
    }
    setTimeout(() => controller.abort(), 50);
    const settled: string[] = [];
    const end = await streamImport(source(), workspace.workflowOptions({ signal: controller.signal, concurrency: 2 }), (_position, outcome) =>
      settled.push(`${outcome.label}: ${outcome.status}`),
    );
    assert.equal(end.stop?.kind, 'cancelled');
    assert.ok(settled.length <= 1, settled.join('; '));
  });

  it('still fails the run when the source throws while the signal has not fired', async () => {
    async function* broken(): AsyncGenerator<SpotInput> {
      yield* [];
      throw new CancelledError();
    }
    await assert.rejects(streamImport(broken(), workspace.workflowOptions({ concurrency: 1 })), /Cancelled/);
  });
});
