// The markers of a set of spot documents: each read as the editor has it (unsaved changes
// included) or from disk, with the editor's own verdict on it (errors from our diagnostics make it
// "invalid"), whether an import of it is known (the galleries remembered for the active profile,
// which record the spot's document and source_id), and the topic definitions for field labels.
import * as vscode from 'vscode';
import { markerName, MARKER_STATES, spotMarkerFromText, type SpotMarker } from '../../core/map';
import type { ExtensionServices } from '../platform/services';
import type { SpotChecker } from '../documents/spotChecker';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';
import type { PageMarker } from './pageProtocol';

/** What reading markers needs of the services (not the command table's type: the map panel it serves is part of that type). */
type MarkerServices = Pick<ExtensionServices, 'profiles' | 'galleries'> & { readonly checker: SpotChecker };

/** What a map shows: the files it watches, all its markers, and (for documents) one file's marker again after an edit. */
export interface MarkerSource {
  readonly watched: readonly vscode.Uri[];
  collect(): Promise<Collected>;
  /** Undefined: an edit of a watched file collects everything again (a table's rows). */
  one?(uri: vscode.Uri): Promise<PageMarker | { id: string; reason: string }>;
}

export interface Collected {
  markers: PageMarker[];
  /** Documents with no coordinates to place, and why (shown as text below the list). */
  skipped: Array<{ id: string; reason: string }>;
}

async function textOf(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  return open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** Whether an import is known, by document or source_id, for the active profile. */
export function importedTest(services: MarkerServices): (uri: vscode.Uri) => (sourceId: string) => boolean {
  const profileId = services.profiles.active()?.id;
  const known = profileId ? services.galleries.list(profileId).flatMap((gallery) => (gallery.spot ? [gallery.spot] : [])) : [];
  const uris = new Set(known.flatMap((spot) => (spot.documentUri ? [spot.documentUri] : [])));
  const sourceIds = new Set(known.map((spot) => spot.sourceId));
  return (uri) => (sourceId) => uris.has(uri.toString()) || sourceIds.has(sourceId);
}

export function pageMarker(marker: SpotMarker, open?: string): PageMarker {
  return {
    ...marker,
    name: markerName(marker),
    letter: MARKER_STATES[marker.state].letter,
    stateLabel: MARKER_STATES[marker.state].label,
    ...(open ? { open } : {}),
  };
}

async function markerOf(services: MarkerServices, uri: vscode.Uri, imported = importedTest(services)): Promise<PageMarker | { id: string; reason: string }> {
  const id = uri.toString();
  try {
    const text = await textOf(uri);
    const hasErrors = vscode.languages.getDiagnostics(uri).some((d) => d.source === DIAGNOSTIC_SOURCE && d.severity === vscode.DiagnosticSeverity.Error);
    const topics = await services.checker.topicsFor(uri).catch(() => undefined);
    const result = spotMarkerFromText(text, { id, hasErrors, imported: imported(uri), topics });
    if (!result.ok) return { id, reason: result.reason };
    return pageMarker(result.marker);
  } catch (error) {
    return { id, reason: error instanceof Error ? error.message : String(error) };
  }
}

async function collectMarkers(services: MarkerServices, uris: readonly vscode.Uri[]): Promise<Collected> {
  const imported = importedTest(services);
  const results = await Promise.all(uris.map((uri) => markerOf(services, uri, imported)));
  const markers: PageMarker[] = [];
  const skipped: Collected['skipped'] = [];
  for (const result of results) {
    if ('reason' in result) skipped.push(result);
    else markers.push(result);
  }
  return { markers, skipped };
}

/** Spot documents: each edit re-reads only the edited one. */
export function documentSource(services: MarkerServices, uris: readonly vscode.Uri[]): MarkerSource {
  return { watched: uris, collect: () => collectMarkers(services, uris), one: (uri) => markerOf(services, uri) };
}
