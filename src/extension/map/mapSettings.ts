// The map's settings, read here rather than in platform/settings.ts: that file is part of
// activation (dist/extension.js), and nothing of the map may be.
import * as vscode from 'vscode';
import { DEFAULT_PRECISION, MAX_PRECISION, OSM_TILES, parseTileSetting, type TileResult, type TileSetting } from '../../core/map';

const SECTION = 'spotImport.map';

/** Decimals Pick Location keeps (spotImport.map.precision, default 6). */
export function mapPrecision(): number {
  const value = vscode.workspace.getConfiguration(SECTION).get<number>('precision', DEFAULT_PRECISION);
  return Number.isInteger(value) && value >= 0 && value <= MAX_PRECISION ? value : DEFAULT_PRECISION;
}

/** spotImport.map.tiles, checked: no source means the offline outline alone. */
export function mapTiles(): TileResult {
  return parseTileSetting(vscode.workspace.getConfiguration(SECTION).get<TileSetting | null>('tiles', null));
}

/** The one-time button: OpenStreetMap's standard tiles, written to the user's settings. */
export async function useOsmTiles(): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('tiles', { ...OSM_TILES }, vscode.ConfigurationTarget.Global);
}

export const affectsMap = (event: vscode.ConfigurationChangeEvent): boolean => event.affectsConfiguration(SECTION);
