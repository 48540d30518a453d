// A document's problems are placed on the text that was checked, not on the file as the import
// left it (issue 33): writing the gallery id back (null → 200001) moves what follows, and a
// warning read against the new text landed two columns early.
import * as assert from 'node:assert/strict';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { ensureCliBuilt, runCli, sandboxEnv, scratch } from './helpers/cliProcess';
import { positionOf } from './helpers/tableFiles';

const DOCUMENT = `{
  "data": {
    "type": "spots",
    "attributes": {
      "topic_id": 1,
      "source_id": "wb-1",
      "fld_1_5": null,
      "latitude": 48.2,
      "longitude": 16.3,
      "state": 2,
      "stat": 1
    }
  }
}
`;

describe('spot-import import: problems placed on the text that was checked', function () {
  this.timeout(30_000);
  let sandbox: RunningSandbox;
  before(() => ensureCliBuilt());
  beforeEach(async () => (sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] })));
  afterEach(() => sandbox.close());

  it('a warning after a gallery field whose id is written back is at its place in the document as it was checked', async () => {
    const project = scratch({ 'tree.spot.json': DOCUMENT, 'tree.media/a.jpg': '\u00ff\u00d8\u00ff\u00e0jpeg' });
    try {
      const result = await runCli(['import', 'tree.spot.json'], { cwd: project.dir, env: sandboxEnv(sandbox.baseUrl) });
      assert.equal(result.code, 0, result.stderr);
      const stat = positionOf(DOCUMENT, '"stat"');
      assert.match(result.stdout, /^tree\.spot\.json: imported "wb-1" as new spot \d+/m, 'the id was written back');
      assert.match(
        result.stdout,
        new RegExp(`^tree\\.spot\\.json:${stat.line}:${stat.column}: warning: stat is sent as a topic field; did you mean state\\?$`, 'm'),
      );
    } finally {
      project.cleanup();
    }
  });
});
