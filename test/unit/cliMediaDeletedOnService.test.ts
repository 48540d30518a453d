// A photo deleted on the service (in its own pages) while another was removed beside the document:
// the run that finds the removed one's media asks the gallery, learns the deleted one is gone, and
// must send it again. It returned "nothing to send" instead, and the media order step then failed
// on the file it had forgotten ("Cannot read properties of undefined (reading 'mediaId')").
// The built-in sandbox keeps its state in SPOT_SANDBOX_DATA/state.json, where the deletion is made.
import * as assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { ensureCliBuilt, jsonLines, runCli, scratch, spotText } from './helpers/cliProcess';

describe('spot-import import: a photo deleted on the service and another removed beside the document', function () {
  this.timeout(60_000);
  let folder: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  afterEach(() => folder?.cleanup());

  it('sends the deleted one again and warns of the removed one; no failure', async () => {
    folder = scratch({
      'spots/walk.spot.json': spotText('walk', { fld_1_5: null }),
      'spots/walk.media/fld_1_5/01.jpg': 'jpeg one',
      'spots/walk.media/fld_1_5/02.jpg': 'jpeg two, longer',
      'spots/walk.media/fld_1_5/03.jpg': 'jpeg three, longer still',
    });
    const env = { SPOT_BASE_URL: 'sandbox', SPOT_SANDBOX_DATA: folder.path('sandbox-data') };
    const first = await runCli(['import', 'spots', '--no-write-back'], { cwd: folder.dir, env });
    assert.equal(first.code, 0, first.stderr);

    const statePath = folder.path('sandbox-data/state.json');
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as { media: Array<{ id: number; file: string }> };
    const deleted = state.media.find((item) => item.file === '02.jpg')!;
    state.media = state.media.filter((item) => item !== deleted);
    writeFileSync(statePath, JSON.stringify(state));
    renameSync(folder.path('spots/walk.media/fld_1_5/03.jpg'), folder.path('03.jpg'));

    const second = await runCli(['import', 'spots', '--no-write-back', '--format', 'json'], { cwd: folder.dir, env });
    const [walk] = jsonLines(second.stdout).filter((record) => record.file === 'spots/walk.spot.json');
    assert.equal(walk?.status, 'imported', second.stdout + second.stderr);
    const galleries = walk.galleries as Array<{ uploaded: number; files: number }>;
    assert.deepEqual(
      galleries.map((gallery) => [gallery.files, gallery.uploaded]),
      [[2, 1]],
      'the two files beside it; 02.jpg sent again',
    );
    const warnings = (walk.problems as Array<{ severity: string; message: string }>).filter((problem) => problem.severity === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(walk.problems));
    assert.match(warnings[0].message, /sent from fld_1_5\/03\.jpg/);
    assert.equal(second.code, 0, second.stderr);
  });
});
