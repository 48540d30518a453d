// The bundles carry a lean proj4 (scripts/bundle/proj4.mjs: its core and the projections survey
// tables use, no WKT): every built-in EPSG code must still work there, giving exactly what the whole
// library gives. dist/rows.js (the extension's, built by npm test before the unit tests) is loaded
// as the extension loads it, after dist/core.js.
import * as assert from 'assert';
import * as path from 'path';
import proj4 from 'proj4';
import { EPSG_DEFINITIONS } from '../../src/core/rows/values/epsgDefinitions.generated';
import * as wholeLibrary from '../../src/core/rows';

const root = path.resolve(__dirname, '..', '..', '..');
type RowsBundle = typeof wholeLibrary;

/** A point near the middle of a definition's projection, in its own units (forward from its origin or UTM zone). */
function pointOf(definition: string): [number, number] {
  const number = (name: string) => Number(new RegExp(`\\+${name}=(-?[\\d.]+)`).exec(definition)?.[1] ?? NaN);
  const zone = number('zone');
  const south = definition.includes('+south');
  const longitude = Number.isFinite(zone) ? zone * 6 - 183 : Number.isFinite(number('lon_0')) ? number('lon_0') + 0.3 : 0.3;
  const latitude = Number.isFinite(zone) ? (south ? -30 : 45) : Number.isFinite(number('lat_0')) && Math.abs(number('lat_0')) < 80 ? number('lat_0') + 0.2 : 45;
  return proj4('WGS84', definition, [longitude, latitude]) as [number, number];
}

describe("the bundles' lean proj4", () => {
  let bundled: RowsBundle;
  before(() => {
    require(path.join(root, 'dist', 'core.js'));
    bundled = require(path.join(root, 'dist', 'rows.js')) as RowsBundle;
  });

  it('transforms a point of every built-in EPSG code exactly as the whole library does', () => {
    const codes = Object.keys(EPSG_DEFINITIONS);
    assert.ok(codes.length > 150, `${codes.length} codes`);
    for (const code of codes) {
      const [x, y] = pointOf(EPSG_DEFINITIONS[code].proj4);
      const spec = `EPSG:${Number(code)}` as const;
      const lean = bundled.toWgs84(x, y, spec);
      const whole = wholeLibrary.toWgs84(x, y, spec);
      assert.ok(!('problem' in lean), `EPSG:${code} in the bundle: ${'problem' in lean ? lean.problem : ''}`);
      assert.deepStrictEqual(lean, whole, `EPSG:${code}`);
    }
  });

  it('says what to give instead of a projection or a WKT string it does not carry', () => {
    const robinson = bundled.resolveCrs({ proj4: '+proj=robin +lon_0=0 +datum=WGS84 +units=m +no_defs' });
    assert.ok('problem' in robinson);
    assert.match(robinson.problem, /the projection "robin" is not one this tool carries \(it has those of survey grids: tmerc, utm/);
    const wkt = bundled.resolveCrs({
      proj4:
        'PROJCS["MGI / Austria GK East",GEOGCS["MGI",DATUM["Militar_Geographische_Institute",SPHEROID["Bessel 1841",6377397.155,299.1528128]]],PROJECTION["Transverse_Mercator"],UNIT["metre",1]]',
    });
    assert.ok('problem' in wkt);
    assert.match(wkt.problem, /WKT definitions are not read: give the coordinate system as "EPSG:<code>" or as a proj4 string/);
  });
});
