// Which open documents are spot documents: *.spot.json files, and any JSON document whose
// data.type is "spots". A cheap text test runs first so that ordinary JSON files (settings,
// package.json) never load the core.
import * as vscode from 'vscode';
import type { CoreModule } from '../platform/lazyCore';

const SPOT_FILE_PATTERN = /\.spot\.json$/i;
const SPOTS_TYPE_HINT = /"type"\s*:\s*"spots"/;
const JSON_LANGUAGES = new Set(['json', 'jsonc']);

function isSpotFileName(uri: vscode.Uri): boolean {
  return SPOT_FILE_PATTERN.test(uri.path);
}

/** Without the core: could this be a spot document? False means certainly not. */
export function mightBeSpotDocument(document: vscode.TextDocument): boolean {
  if (isSpotFileName(document.uri)) return true;
  if (!JSON_LANGUAGES.has(document.languageId)) return false;
  return SPOTS_TYPE_HINT.test(document.getText());
}

/** The core's rule. Untitled JSON documents have no extension, so they are judged as .json. */
export function isSpotDocument(core: CoreModule, document: vscode.TextDocument): boolean {
  if (!mightBeSpotDocument(document)) return false;
  const name = document.isUntitled && !/\.json$/i.test(document.uri.path) ? `${document.uri.path}.json` : document.uri.path;
  return core.looksLikeSpotDocument(name, document.getText());
}

/**
 * The core's offsets count from after a byte-order mark. Files that have one open without it, but
 * an untitled document can hold a pasted U+FEFF as its first character: count it back in.
 */
export function documentOffset(document: vscode.TextDocument, offset: number): number {
  return document.getText(new vscode.Range(0, 0, 0, 1)) === '\uFEFF' ? offset + 1 : offset;
}

/** Offsets from the core (UTF-16 string offsets) to an editor range. */
export function rangeOf(document: vscode.TextDocument, offset: number, length: number): vscode.Range {
  const start = documentOffset(document, offset);
  return new vscode.Range(document.positionAt(start), document.positionAt(start + Math.max(0, length)));
}
