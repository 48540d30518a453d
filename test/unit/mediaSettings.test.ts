// The media settings' literal defaults in package.json (VS Code's Settings editor needs literals)
// must stay the core's lists: the one source is src/core/media/acceptedTypes.ts.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ACCEPTED_TYPES } from '../../src/core/media/acceptedTypes';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
};
const setting = (key: string) => manifest.contributes.configuration.properties[`spotImport.${key}`];

describe('media settings in package.json', () => {
  it("spotImport.media.acceptedTypes defaults to the core's DEFAULT_ACCEPTED_TYPES", () => {
    assert.deepEqual(setting('media.acceptedTypes')?.default, [...DEFAULT_ACCEPTED_TYPES]);
  });

  it("write-back on, in progress off, ordering on by default (the core's defaults)", () => {
    assert.equal(setting('media.writeBack')?.default, true);
    assert.equal(setting('media.keepInProgress')?.default, false);
    assert.equal(setting('media.setOrder')?.default, true);
  });
});
