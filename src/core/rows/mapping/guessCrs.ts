// The coordinate system proposed for coordinates that are not degrees (metres of a grid). The
// export's tool may say it: Survey123 writes x and y in its ArcGIS layer's spatial reference, Web
// Mercator unless the layer was made in another. Otherwise none is proposed, and the advice names
// an example system only where the values can be in it: Web Mercator metres followed into
// EPSG:31256 land in Siberia.
import { l10n } from '../../text/l10n';
import { toWgs84 } from '../values/toWgs84';
import type { ExportTool } from './exportTool';

/** The example the advice names, when the values can be in it: the national grid most of this project's users meet. */
const EXAMPLE = 'EPSG:31256';

/** `positions`: x (easting) and y (northing) of the rows looked at, all beyond degrees. */
export function guessGridCrs(positions: ReadonlyArray<{ x: number; y: number }>, tool: ExportTool | undefined): { crs?: `EPSG:${number}`; note: string } {
  const layer = tool?.layerCrs;
  if (layer && fits(positions, layer.code)) {
    return {
      crs: layer.code,
      note: l10n.t(
        "crs: {0} ({1}): x and y are metres, which {2} writes in its layer's spatial reference, {1} unless the layer was made in another (then give that one)",
        layer.code,
        layer.name,
        tool!.name,
      ),
    };
  }
  return fits(positions, EXAMPLE)
    ? { note: l10n.t('crs: the coordinates are not degrees: set crs to their system, e.g. "{0}"', EXAMPLE) }
    : { note: l10n.t('crs: the coordinates are not degrees: set crs to the system they are in, as "EPSG:<number>" (the export\'s metadata says which)') };
}

/** Every position is a place where the system is used: toWgs84 neither refuses it nor warns of it. */
function fits(positions: ReadonlyArray<{ x: number; y: number }>, crs: `EPSG:${number}`): boolean {
  return (
    positions.length > 0 &&
    positions.every(({ x, y }) => {
      const result = toWgs84(x, y, crs);
      return !('problem' in result) && result.warning === undefined;
    })
  );
}
