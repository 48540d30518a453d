// The gallery grid's page: its HTML with a strict Content-Security-Policy (the one script runs by
// its nonce, images come only from the files host and data:, styles only from the extension), what
// the extension sends it, and the messages it may send back (anything else is ignored). Every text
// the page shows is made here, in the display language: the fixed ones in the HTML, the ones the
// page fills in (counts, notices, tiles' labels) as templates in the body's data-strings.
import * as vscode from 'vscode';
import type * as Core from '../../../core';

/** What the page shows. */
export interface GridState {
  title: string;
  status: 'loading' | 'loaded' | 'failed';
  message?: string;
  hasTemplate: boolean;
  tiles: GridTile[];
}

interface GridTile {
  id: number;
  name: string;
  file: string;
  mimeType: string;
  /** The image's address on the files host (images only, when there is a template). */
  src?: string;
}

/**
 * The texts the page (media/grid/grid.js) fills in itself: {0}, {1} stand for what it puts in,
 * as in the extension's own messages.
 */
interface GridStrings {
  /** "{0} media": the summary once the gallery is read. */
  mediaCount: string;
  /** The summary while the gallery is read. */
  loading: string;
  /** "The gallery could not be read: {0}", the reason in place of {0}. */
  failed: string;
  /** The reason when there is none. */
  unknownError: string;
  /** The notice of a gallery without media. */
  noMedia: string;
  /** The notice while the profile has no media URL template. */
  noTemplate: string;
  /** The notice's button. */
  setTemplate: string;
  /** "{0} of {1}": a tile's place, in its spoken label ("name, type, 2 of 3"). */
  position: string;
  /** The last line of a tile's tooltip. */
  enterOpens: string;
}

/** The page's texts in the display language (called when the page is written). */
function gridStrings(): GridStrings {
  return {
    mediaCount: vscode.l10n.t('{0} media', '{0}'),
    loading: vscode.l10n.t('Loading…'),
    failed: vscode.l10n.t('The gallery could not be read: {0}', '{0}'),
    unknownError: vscode.l10n.t('unknown error'),
    noMedia: vscode.l10n.t('No media yet. Upload files into this gallery from the Galleries view or the Explorer.'),
    noTemplate: vscode.l10n.t("Pictures appear once the profile has a media URL template (the files host's address of a file)."),
    setTemplate: vscode.l10n.t('Set Media URL Template…'),
    position: vscode.l10n.t('{0} of {1}', '{0}', '{1}'),
    enterOpens: vscode.l10n.t('Enter opens it'),
  };
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's language: VS Code's display language when the extension has its texts, else English. */
const pageLanguage = (): string => (vscode.l10n.bundle ? vscode.env.language : 'en');

/** What the page asks for. */
export type PageMessage =
  | { type: 'ready' }
  | { type: 'open'; mediaId: number }
  | { type: 'move'; mediaIds: number[]; place: Core.MediaPlace | { step: -1 | 1 } }
  | { type: 'refresh' }
  | { type: 'setTemplate' };

/** The page, for images from `imageOrigin` ('' while there are none). */
export function gridPage(webview: vscode.Webview, extensionUri: vscode.Uri, imageOrigin: string, nonce: string): string {
  // The script as esbuild.js minifies it from media/grid/grid.js (the .vsix budget); the style as written.
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'grid.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'grid', 'grid.css'));
  const images = [imageOrigin, 'data:'].filter(Boolean).join(' ');
  const policy = ["default-src 'none'", `img-src ${images}`, `style-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  // The page's own texts go in as JSON in an attribute (escaped: no markup, no script).
  const strings = escapeHtml(JSON.stringify(gridStrings()));
  return `<!DOCTYPE html>
<html lang="${escapeHtml(pageLanguage())}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${escapeHtml(vscode.l10n.t('Gallery'))}</title>
</head>
<body data-strings="${strings}">
<header class="toolbar">
  <h1 id="title"></h1>
  <span id="summary" class="summary" aria-live="polite"></span>
  <button id="refresh" class="button" type="button" title="${escapeHtml(vscode.l10n.t('Read the gallery again'))}">${escapeHtml(vscode.l10n.t('Refresh'))}</button>
</header>
<div id="notice" class="notice" hidden></div>
<ul id="grid" class="grid" role="listbox" aria-label="${escapeHtml(vscode.l10n.t('Media of the gallery'))}" aria-describedby="help"></ul>
<p id="help" class="help">${escapeHtml(vscode.l10n.t('Arrow keys move, Enter opens, Alt+Arrow moves the media item; drag a tile onto another to put it there.'))}</p>
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
