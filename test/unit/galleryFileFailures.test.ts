import * as assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importOneSpot } from '../../src/core/import';
import { checkSpotMedia } from '../../src/core/media';
import { useCoreWorkspace } from './helpers/coreSetup';
import { writeSpot } from './helpers/workflowFixtures';

// A file that did not reach its gallery reaches the front end typed (what happened, and whether
// the service may hold it), not as words alone: the CLI's JSON and the editor act on the kind.
describe('import engine: the typed failure of each file that did not reach its gallery', () => {
  const workspace = useCoreWorkspace('spot-file-failures-');

  it('a file changed after its check: kind "changed", stored "no", with its reason', async () => {
    const fixture = writeSpot(workspace.dir, 'typed', { fld_1_3: ['a.jpg', 'b.jpg'] }, { direct: true, size: 512 * 1024 });
    const check = await checkSpotMedia(fixture.path, readFileSync(fixture.path, 'utf8'));
    assert.ok(check.ok, JSON.stringify(check.problems));
    const b = join(workspace.dir, 'typed.media', 'b.jpg');
    writeFileSync(b, Buffer.alloc(statSync(b).size, 9));
    const spot = await importOneSpot({ path: fixture.path, check }, workspace.workflowOptions());
    assert.equal(spot.failure?.kind, 'uploads');
    const failed = spot.galleries[0].failed;
    assert.equal(failed.length, 1);
    assert.deepEqual({ file: failed[0].file, kind: failed[0].kind, stored: failed[0].stored }, { file: 'b.jpg', kind: 'changed', stored: 'no' });
    assert.match(failed[0].reason, /changed/);
  });
});
