import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runImport } from '../../src/core/import';
import { useCoreWorkspace } from './helpers/coreSetup';

// A document saved in another encoding (here Latin-1) must not be decoded leniently: its bytes
// would become U+FFFD and the spot would be imported with text the user never wrote.
describe('media workflow: documents that are not UTF-8', () => {
  const workspace = useCoreWorkspace('spot-media-utf8-');

  it('refuses the document, says why and what to do, and sends nothing', async () => {
    const path = join(workspace.dir, 'cafe.spot.json');
    const text = JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 1, source_id: 'cafe', latitude: 48.2, longitude: 16.37, fld_1_3: 'Café' } } });
    writeFileSync(path, Buffer.from(text, 'latin1'));
    const run = await runImport([{ path }], workspace.workflowOptions());
    assert.equal(run.spots[0].status, 'failed', run.spots[0].reason);
    assert.match(
      String(run.spots[0].reason),
      /^Could not read the file: it is not UTF-8 text: save it as UTF-8 and run again \(the first byte that is not UTF-8 is on line 1\)$/,
    );
    assert.equal(workspace.setup.sandbox.spotBySourceId('cafe'), undefined, 'nothing was imported');
    assert.equal(workspace.setup.sandbox.counters.imports, 0);
  });
});
