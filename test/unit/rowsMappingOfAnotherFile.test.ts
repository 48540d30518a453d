// KoBoToolbox offers the same export as X.csv and X.xlsx, and both find their mapping as
// X.mapping.json: the one written for the workbook says "format": "xlsx", and the CSV read with it
// said only "it is not a ZIP archive that can be read (End of central directory record signature
// not found)". The message now says which mapping read it as what, and names the file it fits.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMappedTable, parseMapping } from '../../src/core/rows';

describe('rows: a mapping written for another file of the same name', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rows-other-mapping-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("says that the mapping's format is not this file's, and names the file beside it that it fits", async () => {
    const name = 'Tree_survey_-_all_versions_-_2026-11-30';
    writeFileSync(join(dir, `${name}.csv`), '_uuid;_location_latitude;_location_longitude\r\na1;47,07;15,44\r\n');
    writeFileSync(join(dir, `${name}.xlsx`), 'PK\x03\x04 a workbook');
    const mapping = { source: { format: 'xlsx' }, topic_id: 1, source_id: 'kobo-{_uuid}', latitude: '_location_latitude', longitude: '_location_longitude' };
    const parsed = parseMapping(join(dir, `${name}.mapping.json`), JSON.stringify(mapping));
    await assert.rejects(openMappedTable(join(dir, `${name}.csv`), parsed), (error: Error) => {
      assert.match(error.message, new RegExp(`${name}\\.mapping\\.json reads it as "format": "xlsx"`));
      assert.match(error.message, new RegExp(`written for ${name}\\.xlsx`));
      return true;
    });
  });

  it('a workbook that is broken, with a mapping that fits it, is said as before', async () => {
    writeFileSync(join(dir, 'form.xlsx'), 'not a zip at all');
    const parsed = parseMapping(join(dir, 'form.mapping.json'), JSON.stringify({ topic_id: 1, source_id: 'x-{id}', latitude: 'a', longitude: 'b' }));
    await assert.rejects(openMappedTable(join(dir, 'form.xlsx'), parsed), (error: Error) => !/reads it as/.test(error.message));
  });
});
