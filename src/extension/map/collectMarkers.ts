// The markers of a set of spot documents: each read as the editor has it (unsaved changes
// included) or from disk, with the editor's own verdict on it (errors from our diagnostics make it
// "invalid"), whether an import of it is known (the galleries remembered for the active profile,
// which record the spot's document and source_id), and the topic definitions for field labels
// and areas. A survey's thousands of documents are read several at a time, straight from disk, and
// handed over in batches as they come, so the map shows the first markers before the last file is read.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { markerName, MARKER_STATES, spotMarkerFromText, type SpotMarker } from '../../core/map';
import type { TopicCatalog } from '../../core';
import type { ExtensionServices } from '../platform/services';
import type { SpotChecker } from '../documents/spotChecker';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';
import type { ShownMarker, SkippedSpot } from './pageProtocol';

/** What reading markers needs of the services (not the command table's type: the map panel it serves is part of that type). */
type MarkerServices = Pick<ExtensionServices, 'profiles' | 'galleries'> & { readonly checker: SpotChecker };

/** Files read at once: enough to keep the disk and the parser busy, few enough to leave the extension host responsive. */
const READ_CONCURRENCY = 16;
/** A batch of markers goes to the map at least this often while reading goes on. */
const BATCH_MS = 150;

/** What a map shows: the files it watches, all its markers, and (for documents) one file's marker again after an edit. */
export interface MarkerSource {
  readonly watched: readonly vscode.Uri[];
  /** `onBatch`: what was read so far, called while reading goes on (the last call is the whole). */
  collect(onBatch?: (sofar: Collected, total: number) => void): Promise<Collected>;
  /** Undefined: an edit of a watched file collects everything again (a table's rows). */
  one?(uri: vscode.Uri): Promise<ShownMarker | SkippedSpot>;
}

export interface Collected {
  markers: ShownMarker[];
  /** Documents with no coordinates to place, and why (shown as text below the list). */
  skipped: SkippedSpot[];
}

/** Whether an import is known, by document or source_id, for the active profile. */
export function importedTest(services: MarkerServices): (uri: vscode.Uri) => (sourceId: string) => boolean {
  const profileId = services.profiles.active()?.id;
  const known = profileId ? services.galleries.list(profileId).flatMap((gallery) => (gallery.spot ? [gallery.spot] : [])) : [];
  const uris = new Set(known.flatMap((spot) => (spot.documentUri ? [spot.documentUri] : [])));
  const sourceIds = new Set(known.map((spot) => spot.sourceId));
  return (uri) => (sourceId) => uris.has(uri.toString()) || sourceIds.has(sourceId);
}

export function shownMarker(marker: SpotMarker, open?: string): ShownMarker {
  return {
    ...marker,
    name: markerName(marker),
    letter: MARKER_STATES[marker.state].letter,
    stateLabel: MARKER_STATES[marker.state].label,
    ...(open ? { open } : {}),
  };
}

/** What stays the same for every document of one map: read once per collection, not once per file. */
interface Shared {
  imported: (uri: vscode.Uri) => (sourceId: string) => boolean;
  open: Map<string, vscode.TextDocument>;
  withErrors: Set<string>;
  topics: (uri: vscode.Uri) => Promise<TopicCatalog | undefined>;
}

function shared(services: MarkerServices): Shared {
  const withErrors = new Set<string>();
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    if (diagnostics.some((d) => d.source === DIAGNOSTIC_SOURCE && d.severity === vscode.DiagnosticSeverity.Error)) withErrors.add(uri.toString());
  }
  // The topic definitions that apply depend on the document's folder (its workspace folder's settings).
  const catalogs = new Map<string, Promise<TopicCatalog | undefined>>();
  const topics = (uri: vscode.Uri) => {
    const folder = vscode.Uri.joinPath(uri, '..').toString();
    let catalog = catalogs.get(folder);
    if (!catalog) catalogs.set(folder, (catalog = services.checker.topicsFor(uri).catch(() => undefined)));
    return catalog;
  };
  return {
    imported: importedTest(services),
    open: new Map(vscode.workspace.textDocuments.map((document) => [document.uri.toString(), document])),
    withErrors,
    topics,
  };
}

async function textOf(uri: vscode.Uri, open: Map<string, vscode.TextDocument>): Promise<string> {
  const document = open.get(uri.toString());
  if (document) return document.getText();
  // Straight from disk for files: VS Code's file system API costs a round trip per file.
  return uri.scheme === 'file' ? fs.readFile(uri.fsPath, 'utf8') : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

async function markerOf(uri: vscode.Uri, facts: Shared): Promise<ShownMarker | SkippedSpot> {
  const id = uri.toString();
  try {
    const [text, topics] = await Promise.all([textOf(uri, facts.open), facts.topics(uri)]);
    const result = spotMarkerFromText(text, { id, hasErrors: facts.withErrors.has(id), imported: facts.imported(uri), topics });
    if (!result.ok) return { id, reason: result.reason, ...(result.swap ? { swap: true } : {}) };
    return shownMarker(result.marker);
  } catch (error) {
    return { id, reason: error instanceof Error ? error.message : String(error) };
  }
}

async function collectMarkers(services: MarkerServices, uris: readonly vscode.Uri[], onBatch?: (sofar: Collected, total: number) => void): Promise<Collected> {
  const facts = shared(services);
  const collected: Collected = { markers: [], skipped: [] };
  let next = 0;
  let lastBatch = Date.now();
  const worker = async () => {
    while (next < uris.length) {
      const result = await markerOf(uris[next++], facts);
      if ('reason' in result) collected.skipped.push(result);
      else collected.markers.push(result);
      if (onBatch && Date.now() - lastBatch >= BATCH_MS && next < uris.length) {
        lastBatch = Date.now();
        onBatch(collected, uris.length);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, uris.length) }, worker));
  // In the order of the files, whatever order the reads ended in.
  const order = new Map(uris.map((uri, index) => [uri.toString(), index]));
  const byFile = (a: { id: string }, b: { id: string }) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0);
  collected.markers.sort(byFile);
  collected.skipped.sort(byFile);
  return collected;
}

/** Spot documents: each edit re-reads only the edited one. */
export function documentSource(services: MarkerServices, uris: readonly vscode.Uri[]): MarkerSource {
  return {
    watched: uris,
    collect: (onBatch) => collectMarkers(services, uris, onBatch),
    one: (uri) => markerOf(uri, shared(services)),
  };
}
