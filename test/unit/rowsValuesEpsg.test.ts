// The built-in EPSG definitions (src/core/rows/values/epsgDefinitions.generated.ts) are what
// scripts/bundle/epsg.js writes from epsg-index: generated again here, so the committed file
// cannot drift from the script's list or from the installed epsg-index.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gridFileOf, resolveCrs } from '../../src/core/rows/values';
import { EPSG_DEFINITIONS } from '../../src/core/rows/values/epsgDefinitions.generated';

const root = join(__dirname, '../../..');
const script = () => require(join(root, 'scripts', 'bundle', 'epsg.js')) as { CODES: number[]; TARGET: string; generate(): string };

describe('rows values: built-in EPSG definitions', () => {
  it('are what scripts/bundle/epsg.js generates (run it after changing its list)', function () {
    this.timeout(60_000); // reads epsg-index's 8 MB all.json
    const { generate, TARGET } = script();
    assert.equal(readFileSync(TARGET, 'utf8'), generate(), 'src/core/rows/values/epsgDefinitions.generated.ts is stale: run node scripts/bundle/epsg.js');
  });

  it('have every listed code, none needing a grid file, each readable by proj4', () => {
    const { CODES } = script();
    assert.deepEqual(
      Object.keys(EPSG_DEFINITIONS)
        .map(Number)
        .sort((a, b) => a - b),
      [...new Set(CODES)].sort((a, b) => a - b),
    );
    for (const [code, { proj4 }] of Object.entries(EPSG_DEFINITIONS)) {
      assert.equal(gridFileOf(proj4), undefined, `EPSG:${code}`);
      const resolved = resolveCrs(`EPSG:${Number(code)}`);
      assert.ok('crs' in resolved, `EPSG:${code}: ${JSON.stringify(resolved)}`);
      assert.equal(resolved.crs.projected, !['4326', '4258'].includes(code), `EPSG:${code}`);
    }
    assert.equal(EPSG_DEFINITIONS['31256'].name, 'MGI / Austria GK East');
    // MGI: the 7 parameters of EPSG's default transformation MGI to WGS 84 (3), EPSG:1618.
    assert.match(EPSG_DEFINITIONS['31256'].proj4, /\+towgs84=577\.326,90\.129,463\.919,5\.137,1\.474,5\.297,2\.4232 /);
  });
});
