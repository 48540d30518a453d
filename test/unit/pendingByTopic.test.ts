// Gallery fields known by a topic definition: which members wait for media is decided by the
// field's type, not by a null value alone, in validation, the import reply, the media workflow,
// the sandbox and the command line's validate.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pendingGalleryFields } from '../../src/core/api/spotSchema';
import { parseSpotText } from '../../src/core/documents/parseSpotText';
import { SPOT_RULES } from '../../src/core/documents/problems';
import { sendSpot } from '../../src/core/import/sendSpot';
import { runImport } from '../../src/core/import';
import type { TopicCatalog, TopicDefinition } from '../../src/core/topics';
import { useCoreWorkspace } from './helpers/coreSetup';
import { mediaBytes } from './helpers/workflowFixtures';

/** Topic 7: fld_7_1 is a text (null is "no value"), fld_7_3 the one gallery. */
const trail: TopicDefinition = {
  topic_id: 7,
  name: 'Trail observations',
  fields: {
    fld_7_1: { type: 'text', label: 'Notes' },
    fld_7_3: { type: 'gallery', label: 'Photos' },
  },
};
const topics: TopicCatalog = new Map([[7, trail]]);

function documentText(attributes: Record<string, unknown>): string {
  const all = { topic_id: 7, source_id: 'trail-1', latitude: 47.1, longitude: 11.4, ...attributes };
  return JSON.stringify({ data: { type: 'spots', attributes: all } }, null, 2) + '\n';
}

const pendingRuleAt = (text: string, options?: { topics?: TopicCatalog }) =>
  parseSpotText(text, options)
    .problems.filter((problem) => problem.rule === SPOT_RULES.pendingNeedsState2)
    .map((problem) => problem.pointer);

describe('pending galleries known by the topic definition', () => {
  describe('validation', () => {
    it('a null text field of a defined topic is no pending gallery: state 1 is fine', () => {
      const text = documentText({ state: 1, fld_7_1: null });
      const parsed = parseSpotText(text, { topics });
      assert.deepEqual(parsed.problems, []);
      assert.ok(parsed.document);
      assert.deepEqual(parsed.document ? parsed.pendingGalleries : 'refused', []);
    });

    it('without the definition the same null fld_ member is taken for a pending gallery, as before', () => {
      assert.deepEqual(pendingRuleAt(documentText({ state: 1, fld_7_1: null })), ['/data/attributes/fld_7_1']);
    });

    it('a null gallery field of the definition still needs state 2, and is the only one pending', () => {
      const text = documentText({ state: 1, fld_7_1: null, fld_7_3: null });
      assert.deepEqual(pendingRuleAt(text, { topics }), ['/data/attributes/fld_7_3']);
      const ready = parseSpotText(documentText({ state: 2, fld_7_1: null, fld_7_3: null }), { topics });
      assert.deepEqual(ready.problems, []);
      assert.deepEqual(ready.document ? ready.pendingGalleries : 'refused', ['fld_7_3']);
    });

    it('a gallery is named fld_<topic>_<number> (the interface): a definition that types another name as a gallery makes it none', () => {
      const odd = { fields: { photos: { type: 'gallery' }, fld_7_3: { type: 'gallery' } } };
      assert.deepEqual(pendingGalleryFields({ topic_id: 7, photos: null, fld_7_3: null }, odd), ['fld_7_3']);
    });

    it("another topic's document keeps the base rule", () => {
      const text = documentText({ topic_id: 8, state: 1, fld_8_1: null });
      assert.deepEqual(pendingRuleAt(text, { topics }), ['/data/attributes/fld_8_1']);
    });

    it('reports the rule together with the field problems (not only once the fields are valid)', () => {
      const text = documentText({ state: 1, latitude: 'north', fld_7_3: null });
      const pointers = parseSpotText(text, { topics })
        .problems.map((problem) => problem.pointer)
        .sort();
      assert.deepEqual(pointers, ['/data/attributes/fld_7_3', '/data/attributes/latitude']);
    });
  });

  describe('against a sandbox that knows the topic', () => {
    const workspace = useCoreWorkspace('spot-pending-topic-', { topics });

    /** trail.spot.json (a null text field and a null gallery field, state 1) with files directly in trail.media/. */
    function writeTrail(files: string[]): string {
      const path = join(workspace.dir, 'trail.spot.json');
      writeFileSync(path, documentText({ state: 1, fld_7_1: null, fld_7_3: null }));
      mkdirSync(join(workspace.dir, 'trail.media'));
      for (const file of files) writeFileSync(join(workspace.dir, 'trail.media', file), mediaBytes(file));
      return path;
    }

    it('the import sends a null text field with state 1 and creates no gallery for it', async () => {
      const parsed = parseSpotText(documentText({ state: 1, fld_7_1: null }), { topics });
      assert.ok(parsed.document, JSON.stringify(parsed.problems));
      const result = await sendSpot(workspace.setup.client, parsed);
      assert.deepEqual(result.pendingGalleries, []);
      assert.equal(workspace.setup.sandbox.spotBySourceId('trail-1')?.attributes.fld_7_1, null);
    });

    it('the import reply is read for the defined gallery fields only', async () => {
      const parsed = parseSpotText(documentText({ state: 2, fld_7_1: null, fld_7_3: null }), { topics });
      assert.ok(parsed.document, JSON.stringify(parsed.problems));
      const result = await sendSpot(workspace.setup.client, parsed);
      assert.deepEqual(
        result.pendingGalleries.map((gallery) => gallery.field),
        ['fld_7_3'],
      );
    });

    it('the media workflow puts files sitting directly in the media folder into the one defined gallery', async () => {
      const path = writeTrail(['01-start.jpg', '02-end.jpg']);

      const run = await runImport([{ path }], workspace.workflowOptions({ topics }));
      const [spot] = run.spots;
      assert.equal(spot.status, 'done', spot.reason);
      assert.deepEqual(
        spot.galleries.map((gallery) => [gallery.field, gallery.uploaded]),
        [['fld_7_3', 2]],
      );
      const written = JSON.parse(readFileSync(path, 'utf8')) as { data: { attributes: Record<string, unknown> } };
      assert.equal(written.data.attributes.state, 1);
      assert.equal(written.data.attributes.fld_7_1, null, 'the text field stays as written');
      assert.equal(written.data.attributes.fld_7_3, spot.galleries[0].galleryId);
      const stored = workspace.setup.sandbox.spotBySourceId('trail-1');
      assert.equal(stored?.attributes.state, 1);
      assert.equal(stored?.attributes.fld_7_1, null);
      assert.equal(workspace.setup.sandbox.gallery(spot.galleries[0].galleryId!)?.mediaIds.length, 2);
    });

    it('without the definitions the workflow cannot tell which null field takes the files, and says so', async () => {
      const path = writeTrail(['01-start.jpg']);
      const run = await runImport([{ path }], workspace.workflowOptions());
      assert.equal(run.spots[0].status, 'invalid');
      assert.match(run.spots[0].reason ?? '', /no single gallery field/);
    });
  });
});
