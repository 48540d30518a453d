// The gallery grid's page: its HTML with a strict Content-Security-Policy (the one script runs by
// its nonce, images come only from the files host and data:, styles only from the extension), what
// the extension sends it, and the messages it may send back (anything else is ignored).
import * as vscode from 'vscode';
import type * as Core from '../../core';

/** What the page shows. */
export interface GridState {
  title: string;
  status: 'loading' | 'loaded' | 'failed';
  message?: string;
  hasTemplate: boolean;
  tiles: GridTile[];
}

export interface GridTile {
  id: number;
  name: string;
  file: string;
  mimeType: string;
  /** The image's address on the files host (images only, when there is a template). */
  src?: string;
}

/** What the page asks for. */
export type PageMessage =
  | { type: 'ready' }
  | { type: 'open'; mediaId: number }
  | { type: 'move'; mediaIds: number[]; place: Core.MediaPlace | { step: -1 | 1 } }
  | { type: 'refresh' }
  | { type: 'setTemplate' };

/** The page, for images from `imageOrigin` ('' while there are none). */
export function gridPage(webview: vscode.Webview, folder: vscode.Uri, imageOrigin: string, nonce: string): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(folder, 'grid.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(folder, 'grid.css'));
  const images = [imageOrigin, 'data:'].filter(Boolean).join(' ');
  const policy = [
    "default-src 'none'",
    `img-src ${images}`,
    `style-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Gallery</title>
</head>
<body>
<header class="toolbar">
  <h1 id="title"></h1>
  <span id="summary" class="summary" aria-live="polite"></span>
  <button id="refresh" class="button" type="button" title="Read the gallery again">Refresh</button>
</header>
<div id="notice" class="notice" hidden></div>
<ul id="grid" class="grid" role="listbox" aria-label="Media of the gallery" aria-describedby="help"></ul>
<p id="help" class="help">Arrow keys move, Enter opens, Alt+Arrow moves the media item; drag a tile onto another to put it there.</p>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** What the page sent, when it is one of the messages it may send (anything else is ignored). */
export function checkedMessage(raw: unknown): PageMessage | undefined {
  const message = raw as { type?: unknown; mediaId?: unknown; mediaIds?: unknown; place?: unknown } | null;
  switch (message?.type) {
    case 'ready':
    case 'refresh':
    case 'setTemplate':
      return { type: message.type };
    case 'open':
      return isId(message.mediaId) ? { type: 'open', mediaId: message.mediaId } : undefined;
    case 'move': {
      const place = message.place as { before?: unknown; after?: unknown; step?: unknown } | string | undefined;
      const ids = Array.isArray(message.mediaIds) && message.mediaIds.length > 0 && message.mediaIds.every(isId) ? (message.mediaIds as number[]) : undefined;
      if (!ids) return undefined;
      if (place === 'top' || place === 'bottom') return { type: 'move', mediaIds: ids, place };
      if (typeof place !== 'object' || place === null) return undefined;
      if (isId(place.before)) return { type: 'move', mediaIds: ids, place: { before: place.before } };
      if (isId(place.after)) return { type: 'move', mediaIds: ids, place: { after: place.after } };
      if (place.step === -1 || place.step === 1) return { type: 'move', mediaIds: ids, place: { step: place.step } };
      return undefined;
    }
    default:
      return undefined;
  }
}

