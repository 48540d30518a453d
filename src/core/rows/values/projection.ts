// proj4's part: a proj4 definition read into a converter to WGS 84 degrees. crs.ts loads this file
// on first use, so proj4 (about 7 ms to load and 130 KB minified) costs nothing to a process that
// imports no coordinates; nothing else imports proj4.
import proj4 from 'proj4';
import { l10n } from '../../text/l10n';

export interface Projection {
  /** Degrees (x longitude, y latitude) or not. */
  projected: boolean;
  /** "metres", "feet", … (English: messages word it in their language, toWgs84.ts). */
  unit: string;
  /** x easting (or longitude), y northing (or latitude) → WGS 84 degrees, unrounded. */
  toWgs84: (x: number, y: number) => { longitude: number; latitude: number };
}

/**
 * A definition proj4 can read, or proj4's reason why not.
 * @public (crs.ts loads this module with require() when a mapping first names a projection)
 */
export function readProjection(definition: string): Projection | { problem: string } {
  let projection: InstanceType<typeof proj4.Proj>;
  try {
    projection = new proj4.Proj(definition);
  } catch (error) {
    // proj4 throws strings ("Could not get projection name from: …").
    const message = error instanceof Error ? error.message : String(error);
    const name = /^Could not get projection name/.test(message) ? /\+proj=(\S+)/.exec(definition)?.[1] : undefined;
    return {
      problem: name
        ? l10n.t(
            'the projection "{0}" is not one this tool carries (it has those of survey grids: tmerc, utm, lcc, somerc, sterea, krovak, laea, aea, omerc, cass, stere, eqc, poly, merc)',
            name,
          )
        : message,
    };
  }
  const converter = proj4(projection, proj4.WGS84);
  return {
    projected: !projection.names.includes('longlat'),
    unit: unitName((projection as { units?: string }).units),
    toWgs84: (x, y) => {
      const [longitude, latitude] = converter.forward([x, y]);
      return { longitude, latitude };
    },
  };
}

const UNIT_NAMES: Record<string, string> = { m: 'metres', km: 'kilometres', ft: 'feet', 'us-ft': 'US survey feet' };

function unitName(units: string | undefined): string {
  if (units === undefined) return 'metres';
  return Object.hasOwn(UNIT_NAMES, units) ? UNIT_NAMES[units] : `units of ${units}`;
}
