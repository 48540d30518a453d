// A GeoJSON file's legacy `crs` member (GeoJSON 2008; RFC 7946 dropped it and says WGS 84, but
// QGIS and others still write it, often for a national grid) as 'EPSG:<code>'. A crs that is
// there but cannot be read is refused, never ignored: read as WGS 84, coordinates in a national
// grid would land far from where they belong.
import type { Node } from 'jsonc-parser';
import { l10n } from '../../text/l10n';
import { memberNodes } from './jsonRow';
import { jsonValue } from './ownMembers';

/** The forms a named crs takes: OGC URNs (with or without a version), OGC http URIs, EPSG:n. */
const EPSG_NAME = [/^urn:ogc:def:crs:EPSG:[^:]*:(\d+)$/i, /^https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/[^/]+\/(\d+)$/i, /^EPSG:{1,2}(\d+)$/i];

/** OGC's CRS84 is WGS 84 with longitude first, which is what GeoJSON coordinates always are (PROJ names it OGC:CRS84, WMS 1.3 CRS:84). */
const CRS84 = /^(urn:ogc:def:crs:OGC:[^:]*:CRS84|https?:\/\/www\.opengis\.net\/def\/crs\/OGC\/[^/]+\/CRS84|OGC:CRS84|CRS:84)$/i;

/** 'EPSG:<code>', or the reason the member cannot be read. */
export function legacyCrs(crs: Node): { crs: string } | { problem: string } {
  const unreadable = {
    problem: l10n.t(
      'its crs member is not one this reader knows: {0} (known: a "name" such as "urn:ogc:def:crs:EPSG::31256" or "EPSG:31256", or an "EPSG" code)',
      JSON.stringify(jsonValue(crs)),
    ),
  };
  if (crs.type !== 'object') return unreadable;
  const members = memberNodes(crs);
  const properties = members.get('properties');
  const props = properties?.type === 'object' ? memberNodes(properties) : new Map<string, Node>();
  const type = members.get('type')?.value;
  if (type === 'name') {
    const name = props.get('name')?.value;
    if (typeof name !== 'string') return unreadable;
    if (CRS84.test(name)) return { crs: 'EPSG:4326' };
    for (const pattern of EPSG_NAME) {
      const code = pattern.exec(name)?.[1];
      if (code) return { crs: `EPSG:${Number(code)}` };
    }
    return unreadable;
  }
  // The 2008 draft's other form: {"type": "EPSG", "properties": {"code": 31256}}.
  if (type === 'EPSG') {
    const code = props.get('code')?.value;
    if ((typeof code === 'number' && Number.isInteger(code)) || (typeof code === 'string' && /^\d+$/.test(code))) return { crs: `EPSG:${Number(code)}` };
  }
  return unreadable;
}
