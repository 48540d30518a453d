// The conversions of a table's cells (src/core/rows/values): numbers with either decimal
// separator, coordinates to WGS 84 against values computed independently with PROJ's cs2cs,
// the latitude/longitude checks, dates and times around daylight-saving changes, category labels.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { categoryKeyOfCell, checkLatitudeLongitude, convertDateTime, parseNumber, toWgs84, type CrsSpec } from '../../src/core/rows/values';
import { parseTopicDefinition } from '../../src/core/topics';
import type { CategoryField } from '../../src/core/topics/categories';
import { useMessageBundle, type MessageBundle } from '../../src/core/text/l10n';

const KROVAK_EAST_NORTH = '+proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 +alpha=30.2881397527778 +k=0.9999 +x_0=0 +y_0=0 +ellps=bessel +units=m +no_defs';

describe('rows values: numbers', () => {
  it('reads decimal commas, decimal points and grouped thousands', () => {
    assert.deepEqual(parseNumber('47,2692', ','), { value: 47.2692 });
    assert.deepEqual(parseNumber('47.2692', '.'), { value: 47.2692 });
    assert.deepEqual(parseNumber('1.234,5', ','), { value: 1234.5 });
    assert.deepEqual(parseNumber('1,234.5', '.'), { value: 1234.5 });
    assert.deepEqual(parseNumber('1.234.567', ','), { value: 1234567 });
    assert.deepEqual(parseNumber(' 1 234,5 ', ','), { value: 1234.5 });
    assert.deepEqual(parseNumber('1\u00a0234,5', ','), { value: 1234.5 });
    assert.deepEqual(parseNumber("1'234.5", '.'), { value: 1234.5 });
    assert.deepEqual(parseNumber('-16,5', ','), { value: -16.5 });
    assert.deepEqual(parseNumber('+16.5', '.'), { value: 16.5 });
    assert.deepEqual(parseNumber('1,5E-3', ','), { value: 0.0015 });
    assert.deepEqual(parseNumber('340000', ','), { value: 340000 });
  });

  it('refuses a decimal comma read with decimal points, and says which setting to change', () => {
    assert.deepEqual(parseNumber('47,2692', '.'), {
      problem: "47,2692 is not a number with '.' as decimal separator; if the file uses decimal commas, set source.decimalSeparator to ','.",
    });
    assert.deepEqual(parseNumber('48.2082', ','), {
      problem: "48.2082 is not a number with ',' as decimal separator; if the file uses decimal points, set source.decimalSeparator to '.'.",
    });
  });

  it('refuses one group of the other mark as ambiguous rather than reading a thousand times the decimal', () => {
    const problem = (parseNumber('16,373', '.') as { problem: string }).problem;
    assert.match(problem, /^16,373 is ambiguous with '\.' as decimal separator: ',' may group thousands \(16373\) or be a decimal comma/);
    assert.match(problem, /set source\.decimalSeparator to ','/);
    assert.match((parseNumber('1.234', ',') as { problem: string }).problem, /^1\.234 is ambiguous/);
  });

  it('gives no value for an empty cell and a problem for text', () => {
    assert.deepEqual(parseNumber('', '.'), { empty: true });
    assert.deepEqual(parseNumber('   ', ','), { empty: true });
    assert.deepEqual(parseNumber('n/a', '.'), { problem: '"n/a" is not a number (e.g. 47.2692).' });
    assert.deepEqual(parseNumber('1e999', '.'), { problem: '1e999 is too large a number.' });
    assert.ok('problem' in parseNumber('5,', ','));
  });
});

/** A conversion's result compared with cs2cs's, within 1e-7 degrees (about 1 cm). */
function assertNear(actual: ReturnType<typeof toWgs84>, longitude: number, latitude: number): void {
  assert.ok('latitude' in actual, JSON.stringify(actual));
  assert.ok(Math.abs(actual.longitude - longitude) < 1e-7, `longitude ${actual.longitude}, cs2cs ${longitude}`);
  assert.ok(Math.abs(actual.latitude - latitude) < 1e-7, `latitude ${actual.latitude}, cs2cs ${latitude}`);
  assert.equal(actual.warning, undefined);
}

describe('rows values: coordinates', () => {
  // Expected values from PROJ 9.1.1's cs2cs (Debian's proj-bin), with the definitions the
  // conversions use (epsg-index's proj4 strings without +type=crs), for example:
  //   $ echo "-2500 340000" | cs2cs -f %.9f +proj=tmerc +lat_0=0 +lon_0=16.3333333333333 +k=1 +x_0=0 \
  //       +y_0=-5000000 +ellps=bessel +towgs84=577.326,90.129,463.919,5.137,1.474,5.297,2.4232 +units=m \
  //       +no_defs +to +proj=longlat +datum=WGS84
  //   16.298505342	48.198403073 0.000000000
  const MGI_GK_EAST =
    '+proj=tmerc +lat_0=0 +lon_0=16.3333333333333 +k=1 +x_0=0 +y_0=-5000000 +ellps=bessel +towgs84=577.326,90.129,463.919,5.137,1.474,5.297,2.4232 +units=m +no_defs';
  const ETRS89_UTM_33N = '+proj=utm +zone=33 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';

  it('EPSG:31256 (MGI / Austria GK East), Vienna and Graz, as cs2cs gives them', () => {
    // echo "-2500 340000" | cs2cs -f %.9f <MGI_GK_EAST> +to +proj=longlat +datum=WGS84
    //   → 16.298505342	48.198403073 0.000000000
    // The same by EPSG code, where PROJ picks EPSG's default transformation (EPSG:1618) in Vienna,
    // confirms epsg-index's +towgs84 (PROJ orders EPSG:31256 northing first and EPSG:4326 latitude first):
    // echo "340000 -2500" | cs2cs -f %.9f EPSG:31256 EPSG:4326  → 48.198403073	16.298505342 0.000000000
    assertNear(toWgs84(-2500, 340000, 'EPSG:31256'), 16.298505342, 48.198403073);
    // echo "-67800 215000" | cs2cs -f %.9f <MGI_GK_EAST> +to +proj=longlat +datum=WGS84
    //   → 15.439596603	47.070634802 0.000000000
    // (By EPSG code PROJ takes the Styria-only MGI to WGS 84 (8) here, 0.44 m west:
    //  echo "215000 -67800" | cs2cs -f %.9f EPSG:31256 EPSG:4326  → 47.070634780	15.439590778 0.000000000)
    assertNear(toWgs84(-67800, 215000, 'EPSG:31256'), 15.439596603, 47.070634802);
  });

  it('EPSG:25833 (ETRS89 / UTM zone 33N), Vienna and Graz, as cs2cs gives them', () => {
    // echo "602000 5340000" | cs2cs -f %.9f <ETRS89_UTM_33N> +to +proj=longlat +datum=WGS84
    //   → 16.372837556	48.205030160 0.000000000
    assertNear(toWgs84(602000, 5340000, 'EPSG:25833'), 16.372837556, 48.20503016);
    // echo "533000 5213000" | cs2cs -f %.9f <ETRS89_UTM_33N> +to +proj=longlat +datum=WGS84
    //   → 15.434630192	47.069688214 0.000000000
    assertNear(toWgs84(533000, 5213000, 'EPSG:25833'), 15.434630192, 47.069688214);
  });

  it('other projections of the list, as cs2cs gives them', () => {
    // echo "1822000 6141000" | cs2cs -f %.9f +proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1
    //   +units=m +nadgrids=@null +wktext +no_defs +to +proj=longlat +datum=WGS84  → 16.367304477	48.204835092
    assertNear(toWgs84(1822000, 6141000, 'EPSG:3857'), 16.367304477, 48.204835092);
    // echo "2600000 1200000" | cs2cs -f %.9f +proj=somerc +lat_0=46.9524055555556 +lon_0=7.43958333333333 +k_0=1
    //   +x_0=2600000 +y_0=1200000 +ellps=bessel +towgs84=674.374,15.056,405.346,0,0,0,0 +units=m +no_defs
    //   +to +proj=longlat +datum=WGS84  → 7.438632421	46.951082772
    assertNear(toWgs84(2600000, 1200000, 'EPSG:2056'), 7.438632421, 46.951082772);
    // echo "-740000 -1200000" | cs2cs -f %.9f +proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 +alpha=30.2881397527778
    //   +k=0.9999 +x_0=0 +y_0=0 +ellps=bessel +towgs84=589,76,480,0,0,0,0 +units=m +no_defs
    //   +to +proj=longlat +datum=WGS84  → 14.749676654	48.692069898
    assertNear(toWgs84(-740000, -1200000, 'EPSG:5514'), 14.749676654, 48.692069898);
    // echo "500000 4649776.22482" | cs2cs -f %.9f +proj=utm +zone=33 +south +datum=WGS84 +units=m +no_defs
    //   +to +proj=longlat +datum=WGS84  → 15.000000000	-48.305208395
    assertNear(toWgs84(500000, 4649776.22482, 'EPSG:32733'), 15, -48.305208395);
  });

  it("EPSG:5514 to a metre: the national operations docs/mapping.md gives as proj4 strings agree with PROJ's", () => {
    // The built-in EPSG:5514 takes "S-JTSK to WGS 84 (3)" (6 m, Czechia and Slovakia), the first
    // operation projinfo lists; cs2cs with EPSG codes picks the 1 m operation of the country the
    // point is in, about 8 m away. Given as proj4 strings (position-vector rotations), as cs2cs
    // gives them (PROJ 9.1.1):
    //   echo "-740000 -1200000" | cs2cs -f %.9f EPSG:5514 EPSG:4326  → 48.691996695	14.749682889 ("(5)", Czechia)
    assertNear(
      toWgs84(-740000, -1200000, { proj4: `${KROVAK_EAST_NORTH} +towgs84=572.213,85.334,461.94,4.9732,1.529,5.2484,3.5378` }),
      14.749682889,
      48.691996695,
    );
    //   echo "-568000 -1278000" | cs2cs -f %.9f EPSG:5514 EPSG:4326  → 48.174512291	17.180619290 ("(4)", Slovakia)
    assertNear(toWgs84(-568000, -1278000, { proj4: `${KROVAK_EAST_NORTH} +towgs84=485,169.5,483.8,7.786,4.398,4.103,0` }), 17.18061929, 48.174512291);
  });

  it("EPSG:28992 (Netherlands, RD New) and EPSG:31370 (Belgian Lambert 72) as PROJ's own EPSG operations give them", () => {
    // PROJ 9.1.1 with its database, no grid files (Debian's proj-bin): the first operation projinfo
    // lists, "Amersfoort to WGS 84 (4)" and "BD72 to WGS 84 (3)" (1 m). epsg-index gave 28992 another
    // operation's parameters in this method's place (170 m off) and 31370 its rotations turned (65 m).
    //   echo "155000 463000" | cs2cs -f %.9f EPSG:28992 EPSG:4326  → 52.155172300	5.387203509 (the RD origin)
    assertNear(toWgs84(155000, 463000, 'EPSG:28992'), 5.387203509, 52.1551723);
    //   echo "121400 487400" | cs2cs -f %.9f EPSG:28992 EPSG:4326  → 52.373445746	4.893803905 (Amsterdam)
    assertNear(toWgs84(121400, 487400, 'EPSG:28992'), 4.893803905, 52.373445746);
    //   echo "148900 170700" | cs2cs -f %.9f EPSG:31370 EPSG:4326  → 50.846702999	4.353132964 (Brussels)
    assertNear(toWgs84(148900, 170700, 'EPSG:31370'), 4.353132964, 50.846702999);
    //   echo "50000 200000" | cs2cs -f %.9f EPSG:31370 EPSG:4326  → 51.101452150	2.940997258 (the coast)
    assertNear(toWgs84(50000, 200000, 'EPSG:31370'), 2.940997258, 51.10145215);
  });

  it("EPSG:2169 (Luxembourg TM) and EPSG:3844 (Romania, Stereo70) as PROJ's own EPSG operations give them", () => {
    // "LUREF to WGS 84 (4)" is a Molodensky-Badekas operation (pivot point): as a position-vector
    // Helmert its translation changes; epsg-index gave its parameters as they are (115 m off).
    // "Pulkovo 1942(58) to WGS 84 (19)" is coordinate-frame: epsg-index gave its rotations unturned (38 m).
    // Both systems' axes are northing, easting: cs2cs is given N E.
    //   echo "100000 80000" | cs2cs -f %.9f EPSG:2169 EPSG:4326  → 49.834400164	6.168126933
    assertNear(toWgs84(80000, 100000, 'EPSG:2169'), 6.168126933, 49.834400164);
    //   echo "70000 60000" | cs2cs -f %.9f EPSG:2169 EPSG:4326  → 49.564346291	5.891657302
    assertNear(toWgs84(60000, 70000, 'EPSG:2169'), 5.891657302, 49.564346291);
    //   echo "330000 600000" | cs2cs -f %.9f EPSG:3844 EPSG:4326  → 44.462783872	26.255199005
    assertNear(toWgs84(600000, 330000, 'EPSG:3844'), 26.255199005, 44.462783872);
    //   echo "600000 400000" | cs2cs -f %.9f EPSG:3844 EPSG:4326  → 46.892040012	23.685957064
    assertNear(toWgs84(400000, 600000, 'EPSG:3844'), 23.685957064, 46.892040012);
  });

  it("a grid position outside where its system is used: swapped x and y (Austria's X is the northing) a problem, otherwise a warning", () => {
    // Graz in MGI / Austria GK East, written as Austrian surveyors write it (X the northing) and read as x = X.
    const swapped = toWgs84(215000, -67800, 'EPSG:31256');
    assert.deepEqual(swapped, {
      problem:
        'x 215000, y -67800 in EPSG:31256 lie outside where that system is used (14.83 to 17.17° east, 46.56 to 49.02° north); swapped, they lie inside: x and y (the columns of longitude and latitude) are probably swapped.',
      swapped: true,
    });
    // Bucharest's degrees projected into Austria's grid: outside, and not a swap.
    const far = toWgs84(900000, 50000, 'EPSG:31256');
    assert.ok(!('problem' in far), JSON.stringify(far));
    assert.match(
      far.warning ?? '',
      /^x 900000, y 50000 in EPSG:31256 lie outside where that system is used \(14\.83 to 17\.17° east, 46\.56 to 49\.02° north\): check the coordinate system\.$/,
    );
    // Inside, and near a border (within a degree): no word.
    assert.equal((toWgs84(-2500, 340000, 'EPSG:31256') as { warning?: string }).warning, undefined);
  });

  it('takes a proj4 definition, and degrees as they are', () => {
    assertNear(toWgs84(-2500, 340000, { proj4: MGI_GK_EAST }), 16.298505342, 48.198403073);
    assertNear(toWgs84(602000, 5340000, { proj4: ETRS89_UTM_33N }), 16.372837556, 48.20503016);
    assertNear(toWgs84(16.3738, 48.2082, 'EPSG:4326'), 16.3738, 48.2082);
    assertNear(toWgs84(16.3738, 48.2082, 'EPSG:4258'), 16.3738, 48.2082);
  });

  it('reads WGS 84 degrees without loading proj4 (most tables give degrees)', () => {
    const script = `const { toWgs84 } = require(${JSON.stringify(require.resolve('../../src/core/rows/values'))}); toWgs84(16.3738, 48.2082, 'EPSG:4326'); process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((file) => /[\\\\/]proj4[\\\\/]/.test(file))))`;
    assert.equal(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }), '[]');
  });

  it('takes WGS 84 degrees (EPSG:4326) exactly as written: no transformation, not even a round trip through radians', () => {
    // proj4 from WGS 84 to WGS 84 turns about one value in five into its neighbour in the last digit.
    for (const [longitude, latitude] of [
      [-177.3763153, -59.0085279],
      [59.6187394, -83.8845117],
      [-15.4605111, -28.5938471],
      [16.3738, 48.2082],
    ]) {
      assert.deepEqual(toWgs84(longitude, latitude, 'EPSG:4326'), { longitude, latitude });
    }
  });

  it('names the built-in codes and the proj4 way out for an unknown code', () => {
    const { problem } = toWgs84(1, 2, 'EPSG:31297') as { problem: string };
    assert.match(problem, /^EPSG:31297 is not built in \(built in: EPSG 2056, .*31254–31259, 31287, .*32601–32660, 32701–32760\)/);
    assert.match(problem, /give its definition as \{ "proj4": "\+proj=… \+towgs84=…" \}/);
    assert.match((toWgs84(1, 2, 'WGS84' as CrsSpec) as { problem: string }).problem, /^"WGS84" is not a coordinate system: give "EPSG:<code>"/);
  });

  it('refuses proj4 definitions that cannot be read or need a grid file', () => {
    assert.match((toWgs84(1, 2, { proj4: 'EPSG:31256' }) as { problem: string }).problem, /^the given proj4 definition cannot be read by proj4: /);
    assert.match(
      (toWgs84(1, 2, { proj4: '+proj=tmerc +ellps=bessel +nadgrids=BETA2007.gsb' }) as { problem: string }).problem,
      /names the grid file BETA2007\.gsb \(\+nadgrids\), which this importer does not have; give the datum shift as \+towgs84=… instead/,
    );
  });

  // Degrees given for a grid were a warning, and the spot was placed where the numbers are as
  // metres: a few metres from the grid's false origin (Croatia for EPSG:31256, off Africa for 3857).
  it('refuses degrees given for a built-in grid; warns only where a point by the false origin lies where the grid is used', () => {
    assert.deepEqual(toWgs84(16.37, 48.2, 'EPSG:31256'), {
      problem: 'x 16.37, y 48.2: these look like degrees, not EPSG:31256 metres; if they are longitude and latitude, the coordinate system is EPSG:4326.',
    });
    assert.deepEqual(toWgs84(16.3577, 48.2048, 'EPSG:3857'), {
      problem: 'x 16.3577, y 48.2048: these look like degrees, not EPSG:3857 metres; if they are longitude and latitude, the coordinate system is EPSG:4326.',
    });
    // Degrees of somewhere else in a UTM zone's table: refused too, not said to be swapped.
    assert.match((toWgs84(48.2, 16.37, 'EPSG:32633') as { problem: string }).problem, /^x 48\.2, y 16\.37: these look like degrees, not EPSG:32633 metres; /);
    // Portugal's grid has its origin in the country (cs2cs EPSG:3763 → EPSG:4326: 39.668690656 -8.133294802):
    // 16 m west and 48 m north of it is a place, and only a warning; Portuguese degrees are refused.
    const nearOrigin = toWgs84(-16, 48, 'EPSG:3763');
    assert.ok('warning' in nearOrigin, JSON.stringify(nearOrigin));
    assert.ok(Math.abs(nearOrigin.longitude + 8.133294802) < 1e-7 && Math.abs(nearOrigin.latitude - 39.668690656) < 1e-7, JSON.stringify(nearOrigin));
    assert.match(nearOrigin.warning!, /^x -16, y 48: these look like degrees, not EPSG:3763 metres; /);
    assert.ok('problem' in toWgs84(-8.61, 41.15, 'EPSG:3763'));
    // A proj4 definition has no area to tell by (a local grid's origin may be the site itself): a warning.
    const local = toWgs84(16.37, 48.2, { proj4: '+proj=tmerc +lat_0=48.2 +lon_0=16.37 +k=1 +x_0=0 +y_0=0 +ellps=GRS80 +units=m +no_defs' });
    assert.ok('warning' in local, JSON.stringify(local));
    assert.match(local.warning!, /^x 16\.37, y 48\.2: these look like degrees, not metres of the given proj4 definition; /);
    assert.equal('warning' in toWgs84(16.37, 48.2, 'EPSG:4326'), false);
  });

  it('refuses what is no position', () => {
    assert.deepEqual(toWgs84(1e9, 1e9, 'EPSG:32633'), {
      problem: 'x 1000000000, y 1000000000 is no position in EPSG:32633: it lies outside what that coordinate system can express.',
    });
    assert.deepEqual(toWgs84(NaN, 5340000, 'EPSG:25833'), { problem: 'x NaN, y 5340000 in EPSG:25833 are not finite numbers.' });
    // Degrees swapped in a GeoJSON file (x must be the longitude).
    assert.deepEqual(toWgs84(48.2, 165.2, 'EPSG:4326'), { problem: 'latitude 165.2 is out of range; latitude and longitude are probably swapped.' });
  });

  it('checks a latitude and longitude: out of range, probably swapped, not finite', () => {
    assert.deepEqual(checkLatitudeLongitude(48.2082, 16.3738), []);
    assert.deepEqual(checkLatitudeLongitude(-90, 180), []);
    assert.deepEqual(checkLatitudeLongitude(165.2, 48.2), ['latitude 165.2 is out of range; latitude and longitude are probably swapped.']);
    assert.deepEqual(checkLatitudeLongitude(95, 120), ['latitude 95 is out of range (-90 to 90).']);
    assert.deepEqual(checkLatitudeLongitude(48.2, 200), ['longitude 200 is out of range (-180 to 180).']);
    assert.deepEqual(checkLatitudeLongitude(200, 16), ['latitude 200 is out of range (-90 to 90).']);
    assert.deepEqual(checkLatitudeLongitude(NaN, Infinity), ['latitude NaN is not a finite number.', 'longitude Infinity is not a finite number.']);
  });
});

describe('rows values: dates and times', () => {
  const vienna = { kind: 'datetime', timezone: 'Europe/Vienna' } as const;

  it('refuses a cell without a whole date (a time alone, a year, a month) instead of making one up; takes every ISO form of a day', () => {
    for (const kind of ['date', 'datetime'] as const) {
      for (const cell of ['14:30', '14:30Z', '12', '1430', '1987', '1987-06']) {
        const result = convertDateTime(cell, { kind });
        assert.ok('problem' in result, `${kind} ${cell}: ${JSON.stringify(result)}`);
        assert.match(
          (result as { problem: string }).problem,
          new RegExp(`^"${cell}" names no whole day: a year, a month and a day are needed \\(ISO 8601, e\\.g\\. `),
          cell,
        );
      }
    }
    assert.deepEqual(convertDateTime('2026-03-29', { kind: 'date' }), { value: '2026-03-29' });
    assert.deepEqual(convertDateTime('20260329', { kind: 'date' }), { value: '2026-03-29' });
    assert.deepEqual(convertDateTime('2026-W13-7', { kind: 'date' }), { value: '2026-03-29' });
    assert.deepEqual(convertDateTime('2026-088', { kind: 'date' }), { value: '2026-03-29' });
    assert.deepEqual(convertDateTime('20260329T143000Z', { kind: 'datetime' }), { value: '2026-03-29 14:30:00' });
    assert.deepEqual(convertDateTime('2026-03-29 14:30', { kind: 'datetime' }), { value: '2026-03-29 14:30:00' });
  });

  it('refuses a reading in the spring gap', () => {
    assert.deepEqual(convertDateTime('2026-03-29 02:30', vienna), {
      problem: '2026-03-29 02:30 does not exist in Europe/Vienna: the clocks went from 02:00 to 03:00.',
    });
    assert.deepEqual(convertDateTime('29.03.2026 02:30', { ...vienna, format: 'dd.MM.yyyy HH:mm' }), {
      problem: '2026-03-29 02:30 does not exist in Europe/Vienna: the clocks went from 02:00 to 03:00.',
    });
    // Either side of the gap exists.
    assert.deepEqual(convertDateTime('2026-03-29 01:59:59', vienna), { value: '2026-03-29 01:59:59' });
    assert.deepEqual(convertDateTime('2026-03-29 03:00', vienna), { value: '2026-03-29 03:00:00' });
  });

  it('takes the earlier offset in the repeated hour, with a warning', () => {
    assert.deepEqual(convertDateTime('2026-10-25 02:30', vienna), {
      value: '2026-10-25 02:30:00',
      warning: '2026-10-25 02:30 happened twice in Europe/Vienna (the clocks went back from 03:00 to 02:00); taken as the earlier, at +02:00.',
    });
    // The earlier instant is 00:30 UTC (02:30 at +02:00), not 01:30 UTC.
    assert.equal(
      (convertDateTime('2026-10-25 02:30', { kind: 'datetime', timezone: 'UTC', inputTimezone: 'Europe/Vienna' }) as { value: string }).value,
      '2026-10-25 00:30:00',
    );
  });

  it('converts a cell with an offset into the zone', () => {
    assert.deepEqual(convertDateTime('2026-05-31T14:30:00Z', vienna), { value: '2026-05-31 16:30:00' });
    assert.deepEqual(convertDateTime('2026-05-31T14:30:00+05:00', vienna), { value: '2026-05-31 11:30:00' });
    assert.deepEqual(convertDateTime('2026-01-15 08:00:00 +01:00', { kind: 'datetime' }), { value: '2026-01-15 07:00:00' });
    // The offset decides, not inputTimezone; and a cell in the gap with an offset is an instant like any other.
    assert.deepEqual(convertDateTime('2026-03-29T02:30:00+01:00', { ...vienna, inputTimezone: 'America/New_York' }), { value: '2026-03-29 03:30:00' });
    // A date field takes the date in the zone.
    assert.deepEqual(convertDateTime('2026-05-31T23:30:00Z', { kind: 'date', timezone: 'Europe/Vienna' }), { value: '2026-06-01' });
  });

  it('reads cells without an offset in inputTimezone', () => {
    assert.deepEqual(convertDateTime('2026-05-31 14:30:00', { ...vienna, inputTimezone: 'UTC' }), { value: '2026-05-31 16:30:00' });
    assert.deepEqual(convertDateTime('2026-05-31T14:30', vienna), { value: '2026-05-31 14:30:00' });
    assert.deepEqual(convertDateTime('2026-05-31 14:30:59.999', { kind: 'datetime' }), { value: '2026-05-31 14:30:59' });
  });

  it('reads a luxon pattern such as dd.MM.yyyy HH:mm', () => {
    const german = { kind: 'datetime', format: 'dd.MM.yyyy HH:mm', timezone: 'Europe/Vienna' } as const;
    assert.deepEqual(convertDateTime('31.05.2026 14:30', german), { value: '2026-05-31 14:30:00' });
    assert.deepEqual(convertDateTime('31.05.2026 14:30', { ...german, inputTimezone: 'UTC' }), { value: '2026-05-31 16:30:00' });
    assert.deepEqual(convertDateTime('2026-05-31 14:30', german), {
      problem: '"2026-05-31 14:30" is not a date and time in the expected format (dd.MM.yyyy HH:mm, e.g. 31.05.2026 14:30).',
    });
    assert.match(
      (convertDateTime('10:00', { kind: 'datetime', format: 'HH:mm' }) as { problem: string }).problem,
      /^the format "HH:mm" has no year, month and day/,
    );
  });

  it('takes a date-only cell for a date field as written, and refuses it for a datetime field', () => {
    assert.deepEqual(convertDateTime('2026-05-31', { kind: 'date', timezone: 'Pacific/Kiritimati' }), { value: '2026-05-31' });
    assert.deepEqual(convertDateTime('31.05.2026', { kind: 'date', format: 'dd.MM.yyyy' }), { value: '2026-05-31' });
    assert.deepEqual(convertDateTime('2026-05-31', vienna), {
      problem: '"2026-05-31" has no time of day; a date and time is expected (ISO 8601, e.g. 2026-05-31T14:30:00+02:00 or 2026-05-31 14:30:00).',
    });
  });

  it('names the expected format for what cannot be read, and gives no value for an empty cell', () => {
    assert.deepEqual(convertDateTime('yesterday', { kind: 'date' }), {
      problem: '"yesterday" is not a date in the expected format (ISO 8601, e.g. 2026-05-31).',
    });
    assert.deepEqual(convertDateTime('+012026-05-31T10:00Z', vienna), { problem: '"+012026-05-31T10:00Z" is outside the years 0000–9999.' });
    assert.deepEqual(convertDateTime(' ', vienna), { empty: true });
  });

  it('says in its own words which part of a date or time does not exist, in English and in German', () => {
    // Each cell has one part out of range, read off it by hand: February 2024 has 29 days, a year 12
    // months, 52 or 53 ISO weeks (2024: 52), 365 or 366 days; a week 7 days; a day hours 0 to 23.
    const cases: Array<[string, 'date' | 'datetime', string]> = [
      ['2024-02-30', 'date', '"2024-02-30" is no valid date: its month has no day 30.'],
      ['20240230', 'date', '"20240230" is no valid date: its month has no day 30.'],
      ['2026-02-31 10:00', 'datetime', '"2026-02-31 10:00" is no valid date: its month has no day 31.'],
      ['2024-13-01', 'date', '"2024-13-01" is no valid date: there is no month 13 (1 to 12).'],
      ['2024-W54-1', 'date', '"2024-W54-1" is no valid date: its year has no week 54.'],
      ['2024-W10-8', 'date', '"2024-W10-8" is no valid date: there is no weekday 8 (1 is Monday, 7 Sunday).'],
      ['2023-366', 'date', '"2023-366" is no valid date: its year has no day 366.'],
      ['2024-05-01T25:00', 'datetime', '"2024-05-01T25:00" is no valid time: there is no hour 25 (0 to 23).'],
      ['2024-05-01 24:30:00', 'datetime', '"2024-05-01 24:30:00" is no valid time: there is no hour 24 (0 to 23).'],
      ['2024-05-01 23:61', 'datetime', '"2024-05-01 23:61" is no valid time: there is no minute 61 (0 to 59).'],
      ['2024-05-01 10:00:60', 'datetime', '"2024-05-01 10:00:60" is no valid time: there is no second 60 (0 to 59).'],
    ];
    for (const [cell, kind, problem] of cases) assert.deepEqual(convertDateTime(cell, { kind }), { problem }, cell);
    // A pattern's reading says the same.
    assert.deepEqual(convertDateTime('30.02.2024', { kind: 'date', format: 'dd.MM.yyyy' }), {
      problem: '"30.02.2024" is no valid date: its month has no day 30.',
    });
    const german = JSON.parse(readFileSync(join(__dirname, '../../../l10n/bundle.l10n.de.json'), 'utf8')) as MessageBundle;
    useMessageBundle(german);
    try {
      assert.deepEqual(convertDateTime('2024-02-30', { kind: 'date' }), { problem: '"2024-02-30" ist kein gültiges Datum: sein Monat hat keinen Tag 30.' });
    } finally {
      useMessageBundle(undefined);
    }
  });

  it('refuses an unknown zone, suggesting the closest', () => {
    assert.deepEqual(convertDateTime('2026-05-31 14:30', { kind: 'datetime', timezone: 'Europe/Viena' }), {
      problem: 'timezone "Europe/Viena" is not a known time zone; did you mean "Europe/Vienna"?',
    });
    assert.deepEqual(convertDateTime('2026-05-31 14:30', { kind: 'datetime', inputTimezone: 'Mars/Olympus' }), {
      problem: 'inputTimezone "Mars/Olympus" is not a known time zone (an IANA name such as Europe/Vienna or UTC).',
    });
  });
});

describe('rows values: categories', () => {
  const fixtures = join(__dirname, '../../../test/fixtures/topics/project');
  const trail = parseTopicDefinition(readFileSync(join(fixtures, 'spot-topics', '7.topic.json'), 'utf8')).definition!;
  const species = trail.fields.fld_7_1 as CategoryField;
  const trees: CategoryField = { type: 'category', label: 'Tree', values: { '1': 'Winter-Linde', '2': 'Sommer-Linde', '3': 'Spitz-Ahorn' } };

  it('takes a key as it is and a label as its key', () => {
    assert.deepEqual(categoryKeyOfCell('2', 'fld_7_1', species), { value: '2' });
    assert.deepEqual(categoryKeyOfCell('Beech', 'fld_7_1', species), { value: '2' });
    assert.deepEqual(categoryKeyOfCell(' larch ', 'fld_7_1', species), { value: '3' });
    assert.deepEqual(categoryKeyOfCell('beetle', 'fld_7_9', trail.fields.fld_7_9 as CategoryField), { value: 'beetle' });
    assert.deepEqual(categoryKeyOfCell('Bark beetles', 'fld_7_9', trail.fields.fld_7_9 as CategoryField), { value: 'beetle' });
  });

  it('takes the label written exactly as the cell before one that differs only in case, and a label in another Unicode form', () => {
    const marks: CategoryField = { label: 'Mark', type: 'category', values: { '1': 'r', '2': '+', '3': 'R' } } as CategoryField;
    assert.deepEqual(categoryKeyOfCell('R', 'fld_7_5', marks), { value: '3' });
    assert.deepEqual(categoryKeyOfCell('r', 'fld_7_5', marks), { value: '1' });
    const pines: CategoryField = { label: 'Tree', type: 'category', values: { '1': 'Föhre' } } as CategoryField;
    // "Föhre" with o and a combining diaeresis, as some systems (macOS file names, some exports) write it.
    assert.deepEqual(categoryKeyOfCell('Fo\u0308hre', 'fld_7_6', pines), { value: '1' });
  });

  it('suggests the closest label for an unknown one, or lists the categories', () => {
    assert.deepEqual(categoryKeyOfCell('Sommerlinde', 'fld_7_2', trees), {
      problem: "'Sommerlinde' is not a category of Tree (fld_7_2); did you mean 'Sommer-Linde'?",
    });
    assert.deepEqual(categoryKeyOfCell('Birch', 'fld_7_1', species), {
      problem: "'Birch' is not a category of Species (fld_7_1); allowed: 1 (Oak), 2 (Beech), 3 (Larch).",
    });
    assert.deepEqual(categoryKeyOfCell('', 'fld_7_1', species), { empty: true });
  });
});

describe('rows values: loading', () => {
  it('loads proj4 and luxon only on the first conversion that needs them', () => {
    // A fresh process: this one has loaded both already.
    const script = `
      const loaded = (name) => Object.keys(require.cache).some((file) => file.includes(['', 'node_modules', name, ''].join(require('path').sep)));
      const values = require(${JSON.stringify(join(__dirname, '../../src/core/rows/values'))});
      const seen = [loaded('proj4'), loaded('luxon')];
      values.parseNumber('1,5', ',');
      seen.push(loaded('proj4'), loaded('luxon'));
      values.toWgs84(602000, 5340000, 'EPSG:25833');
      seen.push(loaded('proj4'), loaded('luxon'));
      values.convertDateTime('2026-05-31 14:30', { kind: 'datetime' });
      seen.push(loaded('luxon'));
      process.stdout.write(JSON.stringify(seen));`;
    const seen = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as boolean[];
    assert.deepEqual(seen, [false, false, false, false, true, false, true]);
  });
});
