// A shapefile's .prj (its coordinate system as WKT) as the EPSG code the project knows: the code
// the WKT names itself (AUTHORITY["EPSG","31256"] of its PROJCS or, without one, its GEOGCS), or
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

export function crsOfPrj(wkt: string): string | undefined {
  const text = wkt.trim();
  const kind = /^(PROJCS|GEOGCS|PROJCRS|GEOGCRS)\[/i.exec(text)?.[1]?.toUpperCase();
  if (!kind) return undefined;
  // The outermost object's own AUTHORITY is its last one (those of its parts come before).
  const authorities = [...text.matchAll(/(?:AUTHORITY|ID)\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]/gi)].map((match) => match[1]);
  const own = authorities.at(-1);
  if (own && (EPSG_DEFINITIONS[own] || own === '4326')) return `EPSG:${own}`;
  const name = /^[A-Z]+\[\s*"([^"]*)"/i.exec(text)?.[1] ?? '';
  if (kind.startsWith('GEOG')) return /wgs[ _]?(19)?84/i.test(name) ? 'EPSG:4326' : undefined;
  byName ??= new Map(Object.entries(EPSG_DEFINITIONS).map(([code, definition]) => [normalised(definition.name), code]));
  const code = byName.get(normalised(name));
  return code ? `EPSG:${code}` : undefined;
}

/** The coordinate system a table says it is in: a GeoJSON layer's crs member, or a shapefile's .prj when it names one this project knows. */
export function tableCrs(table: { crs?: string; prj?: { text: string } }): string | undefined {
  return table.crs ?? (table.prj ? crsOfPrj(table.prj.text) : undefined);
}
