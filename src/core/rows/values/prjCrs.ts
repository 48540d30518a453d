// A shapefile's .prj (its coordinate system as WKT) as the EPSG code the project knows: the code
// the WKT names itself (AUTHORITY["EPSG","31256"] directly in its PROJCS or GEOGCS, never a part's), or
// else its name as ESRI writes it ("MGI_Austria_GK_East", "RGF_1993_Lambert_93") matched against
// the built-in definitions' names ("MGI / Austria GK East", "RGF93 v1 / Lambert-93"). A geographic
// WGS 84 (GCS_WGS_1984) is EPSG:4326. Anything else is not guessed: the mapping names its crs.
import { EPSG_DEFINITIONS } from './epsgDefinitions.generated';

const normalised = (name: string) =>
  name
    .toLowerCase()
    .replace(/\bv1\b/g, '')
    .replace(/rgf93/g, 'rgf 1993')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

let byName: Map<string, string> | undefined;

/** ESRI's names that are not the EPSG name written ESRI's way. */
const ESRI_NAMES: ReadonlyArray<readonly [string, string]> = [
  [normalised('WGS_1984_Web_Mercator_Auxiliary_Sphere'), '3857'],
  [normalised('WGS_1984_Web_Mercator'), '3857'],
];

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
  if (kind.startsWith('GEOG')) return /wgs[ _]?(19)?84/i.test(name) ? 'EPSG:4326' : undefined;
  byName ??= new Map([...Object.entries(EPSG_DEFINITIONS).map(([code, definition]) => [normalised(definition.name), code] as const), ...ESRI_NAMES]);
  const code = byName.get(normalised(name));
  return code ? `EPSG:${code}` : undefined;
}

/** The coordinate system a table says it is in: a GeoJSON layer's crs member, or a shapefile's .prj when it names one this project knows. */
export function tableCrs(table: { crs?: string; prj?: { text: string } }): string | undefined {
  return table.crs ?? (table.prj ? crsOfPrj(table.prj.text) : undefined);
}
