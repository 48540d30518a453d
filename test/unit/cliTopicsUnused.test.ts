// Topic definitions are found from the folder the command runs in upward (docs/cli.md). Run from
// outside the project, `validate project/spots` said "all valid" with the project's spot-topics/
// left out in silence, and a document missing a required field passed. It still checks without
// them (the rule is unchanged), but says which folder it did not use and how to use it.
import * as assert from 'node:assert/strict';
import { ensureCliBuilt, runCli, scratch, spotText } from './helpers/cliProcess';

describe('spot-import: a spot-topics/ beside the documents that the run does not use', function () {
  this.timeout(30_000);
  let folder: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  afterEach(() => folder?.cleanup());

  it('is named, with what to do; run from the project, it applies and nothing is said', async () => {
    folder = scratch({
      'project/spot-topics/1.topic.json': JSON.stringify({
        topic_id: 1,
        name: 'Trees',
        fields: { fld_1_1: { label: 'Species', type: 'text', required: true } },
      }),
      'project/spots/oak.spot.json': spotText('oak'),
    });
    const outside = await runCli(['validate', 'project/spots'], { cwd: folder.dir });
    assert.match(
      outside.stderr,
      /^project\/spot-topics is not used: topic definitions are found from the folder the command runs in upward\. Run it from the project, or pass --topics-folder project\/spot-topics\.$/m,
    );
    const inside = await runCli(['validate', 'spots'], { cwd: folder.path('project') });
    assert.doesNotMatch(inside.stderr, /is not used/);
    assert.match(inside.stdout, /Species \(fld_1_1\)/, 'the definition applies: the required field is missing');
  });
});
