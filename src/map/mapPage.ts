// The map page's HTML, under the policy of mapContentSecurityPolicy (src/core/map/tiles.ts).
import * as vscode from 'vscode';
import { mapContentSecurityPolicy } from '../core/map';

export interface PageOptions {
  nonce: string;
  /** The origin of the configured tiles (scheme://host[:port]); undefined: none allowed. */
  tileOrigin: string | undefined;
  title: string;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function mapPage(webview: vscode.Webview, dist: vscode.Uri, options: PageOptions): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'mapView.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'mapView.css'));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${mapContentSecurityPolicy(webview.cspSource, options.nonce, options.tileOrigin)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${style}">
<title>${escapeHtml(options.title)}</title>
</head>
<body>
<header class="toolbar">
  <span id="summary" role="status" aria-live="polite"></span>
  <ul id="legend" class="legend" aria-label="Marker states"></ul>
  <button id="use-osm" type="button" hidden>Show OpenStreetMap tiles…</button>
  <button id="toggle-list" type="button" aria-controls="list" aria-expanded="true">Hide list</button>
</header>
<p id="pick-hint" class="pick-hint" hidden>Click the map to set this spot's location, or move the map with the arrow keys and press Enter to use its centre.</p>
<main class="layout">
  <div id="map" tabindex="0" aria-label="Map of spots" aria-describedby="pick-hint"></div>
  <section id="list" class="list" aria-label="Spots as a list"><ul id="list-items"></ul></section>
</main>
<script nonce="${options.nonce}" src="${script}"></script>
</body>
</html>`;
}
