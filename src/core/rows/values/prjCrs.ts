// A shapefile's .prj (its coordinate system as WKT) as the EPSG code the project knows: the code
// the WKT names itself (AUTHORITY["EPSG","31256"] directly in its PROJCS or GEOGCS, never a part's), or
// else its name as ESRI writes it ("MGI_Austria_GK_East", "WGS_1984_UTM_Zone_33N") matched against
// the built-in definitions' names ("MGI / Austria GK East", "WGS 84 / UTM zone 33N"), or ESRI's own
// name for a few ("ETRS_1989_LAEA"), where the .prj's central meridian and false easting and
// northing are the definition's: a name alone could place every spot a zone away. A geographic
// WGS 84 (GCS_WGS_1984) is EPSG:4326, ETRS89 (GCS_ETRS_1989) 4258. Anything else is not guessed: the
// mapping names its crs.
import { EPSG_DEFINITIONS } from './epsgDefinitions.generated';

const normalised = (name: string) =>
  name
    .toLowerCase()
    .replace(/\bv1\b/g, '')
    .replace(/rgf93/g, 'rgf 1993')
    .replace(/[^a-z0-9]+/g, ' ')
    // ESRI writes the datum's year in full where EPSG's names shorten it.
    .replace(/\bwgs 1984\b/g, 'wgs 84')
    .replace(/\betrs 1989\b/g, 'etrs89')
    .replace(/\bnad 1983\b/g, 'nad83')
    .trim();

let byName: Map<string, string> | undefined;

/** ESRI's names that are not the EPSG name written ESRI's way. */
const ESRI_NAMES: ReadonlyArray<readonly [string, string]> = [
  [normalised('WGS_1984_Web_Mercator_Auxiliary_Sphere'), '3857'],
  [normalised('WGS_1984_Web_Mercator'), '3857'],
  [normalised('ETRS_1989_LAEA'), '3035'],
  [normalised('ETRS_1989_LCC'), '3034'],
  [normalised('ETRS_1989_Poland_CS92'), '2180'],
  [normalised('ETRS_1989_TM35FIN(E,N)'), '3067'],
  [normalised('ETRS_1989_Portugal_TM06'), '3763'],
  [normalised('GGRS_1987_Greek_Grid'), '2100'],
  [normalised('Belge_1972_Belgian_Lambert_72'), '31370'],
  [normalised('Hungarian_1972_Egyseges_Orszagos_Vetuleti'), '23700'],
  [normalised('Pulkovo_1942_Adj_1958_Stereo_70'), '3844'],
];

// The .prj's parameters and the proj4 definition's for the same thing.
const SAME_PARAMETERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(central_meridian|longitude_of_center|longitude_of_origin)$/, 'lon_0'],
  [/^false_easting$/, 'x_0'],
  [/^false_northing$/, 'y_0'],
];

/** Whether the .prj's central meridian, false easting and northing, where it gives them, are the definition's. */
function parametersAgree(wkt: string, proj4: string): boolean {
  for (const match of wkt.matchAll(/PARAMETER\[\s*"([^"]+)"\s*,\s*([-+0-9.eE]+)\s*\]/gi)) {
    const key = SAME_PARAMETERS.find(([name]) => name.test(match[1].toLowerCase()))?.[1];
    const defined = key === undefined ? undefined : definedParameters(proj4).get(key);
    if (defined !== undefined && Math.abs(Number(match[2]) - defined) > 1e-6) return false;
  }
  return true;
}

/** A proj4 definition's lon_0, x_0 and y_0; a UTM zone's from its number (and south). */
function definedParameters(proj4: string): Map<string, number> {
  const parameters = new Map<string, number>();
  for (const [, key, value] of proj4.matchAll(/\+(lon_0|x_0|y_0)=([-+0-9.eE]+)/g)) parameters.set(key, Number(value));
  const zone = /\+proj=utm\b.*\+zone=(\d+)/.exec(proj4)?.[1];
  if (zone !== undefined) {
    parameters.set('lon_0', Number(zone) * 6 - 183);
    parameters.set('x_0', 500000);
    parameters.set('y_0', /\+south\b/.test(proj4) ? 10000000 : 0);
  }
  return parameters;
}

/**
 * The EPSG code of the outermost object itself: an AUTHORITY (or ID) directly inside it. Those of
 * its parts are deeper: GDAL writes a Pseudo-Mercator whose only codes are its GEOGCS's 4326.
 */
function ownAuthority(text: string): string | undefined {
  let depth = 0;
  let own: string | undefined;
  for (const match of text.matchAll(/(?:AUTHORITY|ID)\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]|\[|\]/gi)) {
    if (match[0] === '[') depth++;
    else if (match[0] === ']') depth--;
    else if (depth === 1) own = match[1];
  }
  return own;
}

export function crsOfPrj(wkt: string): string | undefined {
  const text = wkt.trim();
  const kind = /^(PROJCS|GEOGCS|PROJCRS|GEOGCRS)\[/i.exec(text)?.[1]?.toUpperCase();
  if (!kind) return undefined;
  const own = ownAuthority(text);
  if (own && (EPSG_DEFINITIONS[own] || own === '4326')) return `EPSG:${own}`;
  const name = /^[A-Z]+\[\s*"([^"]*)"/i.exec(text)?.[1] ?? '';
  if (kind.startsWith('GEOG')) return /wgs[ _]?(19)?84/i.test(name) ? 'EPSG:4326' : /etrs[ _]?(19)?89/i.test(name) ? 'EPSG:4258' : undefined;
  byName ??= new Map([...Object.entries(EPSG_DEFINITIONS).map(([code, definition]) => [normalised(definition.name), code] as const), ...ESRI_NAMES]);
  const code = byName.get(normalised(name));
  if (!code) return undefined;
  // Web Mercator has no definition to compare with here (it is built into the transformation).
  const definition = EPSG_DEFINITIONS[code];
  return !definition || parametersAgree(text, definition.proj4) ? `EPSG:${code}` : undefined;
}

/** The coordinate system a table says it is in: a GeoJSON layer's crs member, or a shapefile's .prj when it names one this project knows. */
export function tableCrs(table: { crs?: string; prj?: { text: string } }): string | undefined {
  return table.crs ?? (table.prj ? crsOfPrj(table.prj.text) : undefined);
}
