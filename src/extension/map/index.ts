// Entry of dist/map.js (loaded by src/extension/map/loadMap.ts when a map first opens): Show on Map
// for a spot document, several, or a folder; Pick Location on Map for one document.
import * as vscode from 'vscode';
import type { CommandServices } from '../commands/commandTable';
import { findSpotFiles, guessSpotFiles, type SearchLimits } from '../documents/findSpotFiles';
import { displayName, spotTargetSpotDocument } from '../documents/spotTarget';
import { documentSource, type MarkerSource } from './collectMarkers';
import { rememberedSearch, rememberSearch } from './rememberedSearches';
import { MapPanel, type MapMode } from './mapPanel';
import { tableSource } from './tableMarkers';
import { isMappingUri, isTableUri } from '../tables/tableUris';

export { MapPanel } from './mapPanel';
export type { MapState } from './mapPanel';

/**
 * The map's own search limits (Import Folder has lower ones): a survey's documents, all of them.
 * Past these the map says how many it shows and that there are more.
 */
const MAP_SEARCH_LIMITS: SearchLimits = { files: 100_000, candidates: 200_000 };

/** A second Show on Map of the same target brings its map forward (services.mapPanels, the window's open maps). */
async function open(services: CommandServices, key: string, title: string, mode: MapMode, source: MarkerSource): Promise<MapPanel> {
  const existing = services.mapPanels.reveal(key);
  if (existing) return existing;
  const panel = services.mapPanels.add(key, (closed) => new MapPanel(services, key, title, mode, source, closed));
  await panel.load();
  return panel;
}

/** The spot document of a Galleries view spot row, when its import recorded it. */
function documentOfSpotRow(arg: unknown): vscode.Uri | undefined {
  const galleries = (arg as { galleries?: Array<{ known?: { spot?: { documentUri?: unknown } } }> } | undefined)?.galleries;
  const documentUri = Array.isArray(galleries) ? galleries.map((node) => node.known?.spot?.documentUri).find((uri) => typeof uri === 'string') : undefined;
  return typeof documentUri === 'string' ? vscode.Uri.parse(documentUri, true) : undefined;
}

/** The Uris a command was given: Explorer's selection (uri, uris[]), one Uri, a Galleries view spot row, or none (the active editor). */
function givenUris(args: unknown[]): vscode.Uri[] {
  const [first, second] = args;
  if (first && typeof first === 'object' && !(first instanceof vscode.Uri) && 'galleries' in first) {
    const uri = documentOfSpotRow(first);
    if (!uri)
      throw new Error(
        vscode.l10n.t('The document this spot was imported from is not known (it was imported before documents were recorded, or by the command line).'),
      );
    return [uri];
  }
  if (Array.isArray(second) && second.length > 0 && second.every((uri) => uri instanceof vscode.Uri)) return second as vscode.Uri[];
  return first instanceof vscode.Uri ? [first] : [];
}

async function isFolder(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}

export async function showOnMap(services: CommandServices, args: unknown[]): Promise<MapPanel> {
  const core = await services.core();
  const given = givenUris(args);
  if (given.length === 0) {
    const editing = vscode.window.activeTextEditor?.document.uri;
    if (editing && (isTableUri(editing) || isMappingUri(editing))) return showTable(services, editing);
    const { document, name } = await spotTargetSpotDocument(core, undefined);
    const active = document.uri;
    return open(services, `show:${active.toString()}`, vscode.l10n.t('Map: {0}', name), 'show', documentSource(services, [active]));
  }
  if (given.length === 1 && (isTableUri(given[0]) || isMappingUri(given[0]))) return showTable(services, given[0]);
  // Documents named are checked now (a wrong one is said at once); folders are walked and read
  // once the map's page is loading, and searched after their documents are drawn.
  const key = `show:${given.map(String).join('|')}`;
  const parts: Array<vscode.Uri | { folder: vscode.Uri }> = [];
  for (const uri of given) parts.push((await isFolder(uri)) ? { folder: uri } : (await spotTargetSpotDocument(core, uri)).document.uri);
  const find = async (signal?: AbortSignal): Promise<vscode.Uri[]> => {
    const started = Date.now();
    const uris: vscode.Uri[] = [];
    let truncated = false;
    for (const part of parts) {
      if (part instanceof vscode.Uri) {
        uris.push(part);
        continue;
      }
      const found = await findSpotFiles(core, part.folder, { log: services.log, limits: MAP_SEARCH_LIMITS, signal });
      uris.push(...found.uris);
      truncated ||= found.truncated;
    }
    if (truncated)
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'The map shows the first {0} spot documents found: there are more. Show a subfolder on the map to see its spots.',
          uris.length.toLocaleString(vscode.env.language),
        ),
      );
    if (uris.length === 0) void vscode.window.showInformationMessage(vscode.l10n.t('No spot documents in {0}.', given.map(displayName).join(', ')));
    services.log.info('map', `found ${uris.length} spot documents in ${Date.now() - started} ms`);
    rememberSearch(key, uris);
    return uris;
  };
  // What the search will most likely find: what it found when this map last opened, else a walk of the folders.
  const remembered = rememberedSearch(key);
  const likely = async (signal?: AbortSignal): Promise<readonly vscode.Uri[] | undefined> => {
    if (remembered) return remembered;
    const started = Date.now();
    const uris: vscode.Uri[] = [];
    for (const part of parts) {
      const guessed = part instanceof vscode.Uri ? [part] : await guessSpotFiles(part.folder, MAP_SEARCH_LIMITS, signal);
      if (!guessed) return undefined;
      uris.push(...guessed);
    }
    services.log.info('map', `a walk of the folders found ${uris.length} spot documents by name in ${Date.now() - started} ms`);
    // None by name: the documents are .json files found by their content, which only the search reads.
    return uris.length > 0 ? uris : undefined;
  };
  const title =
    given.length === 1
      ? vscode.l10n.t('Map: {0}', displayName(given[0]) || (given[0].path.split('/').pop() ?? ''))
      : vscode.l10n.t('Map: {0} items', given.length);
  return open(services, key, title, 'show', documentSource(services, { likely, find }));
}

/** A table with its mapping (or the mapping of one): its rows as spots. */
async function showTable(services: CommandServices, given: vscode.Uri): Promise<MapPanel> {
  const source = await tableSource(services, given);
  return open(services, `table:${source.watched[0].toString()}`, vscode.l10n.t('Map: {0}', source.name), 'show', source);
}

export async function pickLocation(services: CommandServices, arg: unknown): Promise<MapPanel> {
  const { document, name } = await spotTargetSpotDocument(await services.core(), arg instanceof vscode.Uri ? arg : undefined);
  return open(services, `pick:${document.uri.toString()}`, vscode.l10n.t('Pick Location: {0}', name), 'pick', documentSource(services, [document.uri]));
}
