// The coordinate systems a table's coordinates may be given in by EPSG code, trimmed at build time
// from epsg-index (every EPSG definition as a proj4 string, 8 MB of JSON with WKT, areas and
// bounds) to the proj4 strings and names of a curated list: src/core/rows/values/
// epsgDefinitions.generated.ts, about 25 KB. The generated file is committed, so neither the build
// nor the extension reads epsg-index (a development dependency); test/unit/rowsValuesEpsg.test.ts
// generates it again and fails when the committed file differs (a changed list, a new epsg-index).
// Usage: node scripts/bundle/epsg.js   (writes the file)
'use strict';

const fs = require('fs');
const path = require('path');

const range = (first, last) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

// What the people who bring tables use (docs: /work/shared/design/data-sources.md): degrees, Web
// Mercator, the national grids of Austria and its neighbours and of the larger EU countries, and
// UTM zones. ETRS89 / UTM zone 38N (25838) is deprecated by EPSG and not in epsg-index.
const CODES = [
  4326, // WGS 84 (degrees)
  4258, // ETRS89 (degrees)
  3857, // WGS 84 / Pseudo-Mercator (web maps)
  // Austria: MGI Gauss-Krüger West, Central, East, M28, M31, M34; MGI and ETRS89 Lambert
  31254,
  31255,
  31256,
  31257,
  31258,
  31259,
  31287,
  3416,
  ...range(25828, 25837), // ETRS89 / UTM zones 28N–37N (Germany: 25832, 25833)
  ...range(32601, 32660), // WGS 84 / UTM zones 1N–60N
  ...range(32701, 32760), // WGS 84 / UTM zones 1S–60S
  3035,
  3034, // ETRS89-extended / LAEA and LCC Europe
  2056,
  21781, // Switzerland: LV95, LV03
  28992, // Netherlands: RD New
  31370, // Belgium: Lambert 72
  2154, // France: Lambert-93
  5514, // Czechia and Slovakia: S-JTSK / Krovak East North
  2180, // Poland: CS92
  3067, // Finland: TM35FIN
  3006, // Sweden: SWEREF99 TM
  3765, // Croatia: HTRS96 / TM
  3794, // Slovenia: D96 / TM
  23700, // Hungary: EOV
  2169, // Luxembourg: LUREF
  3763, // Portugal: TM06
  2100, // Greece: GGRS87
  3844, // Romania: Stereo70
  4647,
  5650, // Germany: ETRS89 / UTM 32N and 33N with the zone number before the easting
  ...range(26901, 26923), // NAD83 / UTM zones 1N–23N
];

const TARGET = path.join(__dirname, '..', '..', 'src', 'core', 'rows', 'values', 'epsgDefinitions.generated.ts');

// Datum shifts epsg-index has wrong, as PROJ's own operations give them (projinfo -s EPSG:<code>
// -t EPSG:4326, its first operation, in proj4's position-vector convention: a coordinate-frame
// operation's rotations turned; a Molodensky-Badekas one's translation moved to the earth's
// centre, T + P - (1 + s)·R·P for its pivot point P). epsg-index gave 28992 other parameters
// (its points 170 m off), 2169 a Molodensky-Badekas operation's as they are (115 m), 3844 and
// 31370 coordinate-frame rotations unturned (38 m, 65 m). test/unit/rowsValues.test.ts checks each
// against cs2cs; checking every code of the list so found these four.
const TOWGS84 = {
  2169: '-189.6797,18.3473,-42.7691,-0.33746,-3.09264,2.53861,0.4598', // LUREF to WGS 84 (4)
  3844: '2.329,-147.042,-92.08,-0.309,0.325,0.497,5.69', // Pulkovo 1942(58) to WGS 84 (19)
  28992: '565.4171,50.3319,465.5524,-0.398957388243134,0.343987817378283,-1.87740163998045,4.0725', // Amersfoort to WGS 84 (4)
  31370: '-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747', // BD72 to WGS 84 (3)
};

/** The definition with its towgs84 corrected where TOWGS84 says; a definition without one to correct is a changed index. */
function corrected(code, proj4) {
  const towgs84 = TOWGS84[code];
  if (towgs84 === undefined) return proj4;
  if (!/\+towgs84=[^ ]+/.test(proj4)) throw new Error(`EPSG:${code} has no towgs84 in epsg-index to correct: see TOWGS84 in scripts/bundle/epsg.js`);
  return proj4.replace(/\+towgs84=[^ ]+/, `+towgs84=${towgs84}`);
}

// proj4 in JavaScript has no grid files: a definition that needs one (+nadgrids= other than
// @null) is left out rather than shipped to transform without its shift. The run-time rule for
// definitions a user gives is gridFileOf() in src/core/rows/values/crs.ts; the generation test
// checks every generated definition against that rule too.
const needsGridFile = (proj4) => /\+nadgrids=(?!@null(\s|$))/.test(proj4);

/** The generated module's text, from epsg-index's all.json. */
function generate() {
  const indexDir = path.dirname(require.resolve('epsg-index/package.json'));
  const version = JSON.parse(fs.readFileSync(path.join(indexDir, 'package.json'), 'utf8')).version;
  const all = JSON.parse(fs.readFileSync(path.join(indexDir, 'all.json'), 'utf8'));
  const lines = [];
  const leftOut = [];
  for (const code of [...new Set(CODES)].sort((a, b) => a - b)) {
    const entry = all[String(code)];
    // A code the index lacks is a mistake in the list, not something to skip quietly.
    if (!entry) throw new Error(`EPSG:${code} is not in epsg-index ${version}`);
    if (!entry.proj4) throw new Error(`EPSG:${code} has no proj4 definition in epsg-index ${version}`);
    if (needsGridFile(entry.proj4)) {
      leftOut.push(code);
      continue;
    }
    // epsg-index's bbox is north, west, south, east; the area is written west, south, east, north (GeoJSON's order).
    const [north, west, south, east] = entry.bbox;
    const area = `[${[west, south, east, north].join(', ')}]`;
    lines.push(
      `  ${JSON.stringify(String(code))}: { name: ${JSON.stringify(entry.name)}, proj4: ${JSON.stringify(corrected(code, entry.proj4))}, area: ${area} },`,
    );
  }
  return [
    `// Generated by scripts/bundle/epsg.js from epsg-index ${version} (all.json): do not edit. Run`,
    '// `node scripts/bundle/epsg.js` after changing its list; test/unit/rowsValuesEpsg.test.ts fails',
    '// while this file differs from what the script writes.',
    ...(leftOut.length > 0 ? [`// Left out (they need grid files): ${leftOut.map((code) => `EPSG:${code}`).join(', ')}.`] : []),
    `// Datum shifts corrected as PROJ gives them (TOWGS84 in the script): ${Object.keys(TOWGS84)
      .map((code) => `EPSG:${code}`)
      .join(', ')}.`,
    '',
    '/**',
    ' * The built-in coordinate systems by EPSG code: name, proj4 definition (as epsg-index gives it, but',
    ' * the corrected shifts) and area of use in degrees (west, south, east, north).',
    ' */',
    'export const EPSG_DEFINITIONS: Readonly<Record<string, { readonly name: string; readonly proj4: string; readonly area: readonly [number, number, number, number] }>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}

module.exports = { CODES, TARGET, generate };

if (require.main === module) {
  fs.writeFileSync(TARGET, generate());
  console.log(`wrote ${path.relative(process.cwd(), TARGET)}`);
}
