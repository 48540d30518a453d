// The map page's HTML, under the policy of mapContentSecurityPolicy (src/core/map/tiles.ts). Every
// text the page shows is made here, in the display language: the fixed ones in the HTML, the ones
// the page fills in (the summary, groups, the list) as templates in the body's data-strings.
import * as vscode from 'vscode';
import { mapContentSecurityPolicy } from '../../core/map';
import type { MapStrings } from './pageProtocol';

export interface PageOptions {
  nonce: string;
  /** The origin of the configured tiles (scheme://host[:port]); undefined: none allowed. */
  tileOrigin: string | undefined;
  title: string;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's texts in the display language (called when the page is written). */
function mapStrings(): MapStrings {
  return {
    oneSpot: vscode.l10n.t('1 spot.'),
    spots: vscode.l10n.t('{0} spots.', '{0}'),
    oneSpotSkipped: vscode.l10n.t('1 spot; {0} not on the map (see the list).', '{0}'),
    spotsSkipped: vscode.l10n.t('{0} spots; {1} not on the map (see the list).', '{0}', '{1}'),
    reading: vscode.l10n.t('Reading… {0} of {1}', '{0}', '{1}'),
    misplaced: vscode.l10n.t("{0} outside their topic's area.", '{0}'),
    tilesOff: vscode.l10n.t('Tiles off: {0}', '{0}'),
    hideList: vscode.l10n.t('Hide list'),
    showList: vscode.l10n.t('Show list'),
    listInView: vscode.l10n.t('Spots in view ({0})', '{0}'),
    listInViewCut: vscode.l10n.t('The first {0} of {1} spots in view (zoom in for the others)', '{0}', '{1}'),
    listMisplaced: vscode.l10n.t("Outside their topic's area ({0})", '{0}'),
    listSkipped: vscode.l10n.t('Not on the map ({0})', '{0}'),
    groupTooltip: vscode.l10n.t('{0} spots: {1}', '{0}', '{1}'),
    groupLabel: vscode.l10n.t('Group of {0} spots ({1}); press Enter to zoom in', '{0}', '{1}'),
    skipped: vscode.l10n.t('{0}: not on the map ({1})', '{0}', '{1}'),
    swap: vscode.l10n.t('Swap latitude and longitude'),
    pickWithoutTiles: vscode.l10n.t('Without a tile layer the map shows coasts, borders and a grid only: tiles make picking precise.'),
  };
}

/** The page's language: VS Code's display language when the extension has its texts, else English. */
const pageLanguage = (): string => (vscode.l10n.bundle ? vscode.env.language : 'en');

export function mapPage(webview: vscode.Webview, dist: vscode.Uri, options: PageOptions): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'mapView.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'mapView.css'));
  const strings = mapStrings();
  return `<!DOCTYPE html>
<html lang="${escapeHtml(pageLanguage())}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${mapContentSecurityPolicy(webview.cspSource, options.nonce, options.tileOrigin)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${style}">
<title>${escapeHtml(options.title)}</title>
</head>
<body data-strings="${escapeHtml(JSON.stringify(strings))}">
<header class="toolbar">
  <span id="summary" role="status" aria-live="polite"></span>
  <ul id="legend" class="legend" aria-label="${escapeHtml(vscode.l10n.t('Marker states'))}"></ul>
  <button id="use-osm" type="button" hidden>${escapeHtml(vscode.l10n.t('Show OpenStreetMap tiles…'))}</button>
  <button id="toggle-list" type="button" aria-controls="list" aria-expanded="true">${escapeHtml(strings.hideList)}</button>
</header>
<p id="pick-hint" class="pick-hint" hidden>${escapeHtml(vscode.l10n.t("Click the map to set this spot's location, or move the map with the arrow keys and press Enter to use the place under the mark."))}</p>
<p id="pick-without-tiles" class="pick-hint" hidden>${escapeHtml(strings.pickWithoutTiles)} <button id="pick-use-osm" type="button">${escapeHtml(vscode.l10n.t('Show OpenStreetMap tiles…'))}</button></p>
<main class="layout">
  <div id="map" tabindex="0" aria-label="${escapeHtml(vscode.l10n.t('Map of spots'))}" aria-describedby="pick-hint pick-without-tiles"></div>
  <section id="list" class="list" aria-label="${escapeHtml(vscode.l10n.t('Spots as a list'))}"><ul id="list-items"></ul></section>
</main>
<script nonce="${options.nonce}" src="${script}"></script>
</body>
</html>`;
}
