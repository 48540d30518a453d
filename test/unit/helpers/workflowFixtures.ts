// Spot documents with media folders on disk for the media workflow's tests and benchmark, and the
// checks that a finished run left every spot, gallery and document as it should be.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningSandbox } from '../../../src/sandbox/types';

export interface SpotFixture {
  sourceId: string;
  path: string;
  /** Media by gallery field, each list in name order; `direct` puts one field's files straight in the media folder. */
  media: Record<string, Array<{ name: string; bytes: Buffer }>>;
  direct: boolean;
}

/** Distinct, deterministic content: a gallery can only tell files apart by what they hold. */
export function mediaBytes(tag: string, size = 2048): Buffer {
  const seed = createHash('sha256').update(tag).digest();
  const bytes = Buffer.alloc(size);
  for (let offset = 0; offset < size; offset += seed.length) seed.copy(bytes, offset, 0, Math.min(seed.length, size - offset));
  bytes.write(tag, 0);
  return bytes;
}

/**
 * Writes `<name>.spot.json` (pending null gallery fields, state 2, indented like a person would)
 * and `<name>.media/` with the files: directly in the folder for a single direct field, else one
 * subfolder per field.
 */
export function writeSpot(
  dir: string,
  name: string,
  media: Record<string, string[]>,
  options: { direct?: boolean; size?: number; extra?: Record<string, unknown> } = {},
): SpotFixture {
  const fields = Object.keys(media);
  const direct = options.direct ?? false;
  const attributes: Record<string, unknown> = { topic_id: 1, source_id: `src-${name}`, latitude: 48.2, longitude: 16.37, state: 2, ...options.extra };
  for (const field of fields) attributes[field] = null;
  const path = join(dir, `${name}.spot.json`);
  writeFileSync(path, JSON.stringify({ data: { type: 'spots', attributes } }, null, 4) + '\n');
  const fixture: SpotFixture = { sourceId: `src-${name}`, path, media: {}, direct };
  for (const field of fields) {
    const folder = direct ? join(dir, `${name}.media`) : join(dir, `${name}.media`, field);
    mkdirSync(folder, { recursive: true });
    fixture.media[field] = media[field].map((file) => {
      const bytes = mediaBytes(`${name}/${field}/${file}`, options.size);
      writeFileSync(join(folder, file), bytes);
      return { name: file, bytes };
    });
  }
  return fixture;
}

/** Every spot state 1, every gallery holding each file exactly once in name order, every document holding its ids. */
export function assertFinished(sandbox: RunningSandbox, fixtures: SpotFixture[]): void {
  for (const fixture of fixtures) {
    const stored = sandbox.spotBySourceId(fixture.sourceId);
    assert.ok(stored, `${fixture.sourceId} was imported`);
    assert.equal(stored.attributes.state, 1, `${fixture.sourceId} is state 1`);
    const document = JSON.parse(readFileSync(fixture.path, 'utf8')) as { data: { attributes: Record<string, unknown> } };
    assert.equal(document.data.attributes.state, 1, `${fixture.path} says state 1`);
    for (const [field, files] of Object.entries(fixture.media)) {
      const galleryId = document.data.attributes[field];
      assert.equal(typeof galleryId, 'number', `${fixture.path} holds the gallery id of ${field}`);
      assert.equal(stored.attributes[field], galleryId, `the service's ${field} is the document's gallery id`);
      const gallery = sandbox.gallery(galleryId as number);
      assert.ok(gallery, `gallery ${galleryId} exists`);
      const contents = gallery.mediaIds.map((id) => readFileSync(sandbox.media(id)!.path));
      assert.deepEqual(
        contents.map((bytes) => digest(bytes)),
        files.map((file) => digest(file.bytes)),
        `gallery ${galleryId} (${fixture.sourceId} ${field}) holds each file exactly once, in name order`,
      );
    }
  }
}

function digest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}
