import * as assert from 'node:assert/strict';
import { bulkImport } from '../../src/core/import/bulkImport';
import { CancelledError } from '../../src/core/api/errors';

const text = (sourceId: string) => JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: sourceId, latitude: 1, longitude: 2 } } });

// A defect in the client (a TypeError) is not a network failure: saying "could not reach" would
// send the user after the wrong cause. It is reported as what it is, and the other items go on.
describe('bulk import: failures that are not the service\'s', () => {
  it('reports a TypeError as an unexpected failure, not a network error, and imports the rest', async () => {
    let calls = 0;
    const client = {
      async importSpot() {
        calls++;
        if (calls === 1) throw new TypeError("Cannot read properties of undefined (reading 'id')");
        return { spotId: 100000 + calls, pendingGalleries: [] };
      },
    };
    const outcome = await bulkImport([{ label: 'a', read: async () => text('a') }, { label: 'b', read: async () => text('b') }], client, { concurrency: 1 });
    const [first, second] = outcome.results;
    assert.equal(first.ok, false);
    assert.ok(!first.ok && !first.error, 'no ServiceError is made up for it');
    assert.match(!first.ok ? first.reason : '', /^Unexpected failure \(TypeError\): Cannot read properties/);
    assert.equal(second.ok, true);
    assert.equal(outcome.stoppedBy, undefined);
  });

  it('still stops on a cancellation that is not a ServiceError (an AbortError)', async () => {
    const client = {
      async importSpot(): Promise<never> {
        throw Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
      },
    };
    const outcome = await bulkImport([{ label: 'a', read: async () => text('a') }, { label: 'b', read: async () => text('b') }], client, { concurrency: 1 });
    assert.ok(outcome.stoppedBy instanceof CancelledError, `stopped by ${String(outcome.stoppedBy)}`);
    assert.equal(outcome.results[1].ok, false);
    assert.ok(!outcome.results[1].ok && outcome.results[1].notAttempted, 'the second item was not attempted');
  });
});
