// The markers of a set of spot documents: each read as the editor has it (unsaved changes
// included) or from disk, with the editor's own verdict on it (errors from our diagnostics make it
// "invalid"), whether an import of it is known (the galleries remembered for the active profile,
// which record the spot's document and source_id), and the topic definitions for field labels
// and areas. A survey's thousands of documents are read straight from disk in short synchronous
// chunks, and handed over in a few batches as they come, so the map shows the first markers
// before the last file is read.
import { readFileSync, statSync } from 'node:fs';
import * as vscode from 'vscode';
import { markerName, MARKER_STATES, spotMarkerFromText, type SpotMarker } from '../../core/map';
import { MAX_DOCUMENT_BYTES, type TopicCatalog } from '../../core';
import type { ExtensionServices } from '../platform/services';
import type { SpotChecker } from '../documents/spotChecker';
import { DIAGNOSTIC_SOURCE } from '../platform/diagnosticSource';
import type { ShownMarker, SkippedSpot } from './pageProtocol';

/** What reading markers needs of the services (not the command table's type: the map panel it serves is part of that type). */
type MarkerServices = Pick<ExtensionServices, 'profiles' | 'galleries'> & { readonly checker: SpotChecker };

/**
 * Files read one after the other, synchronously, before the extension host gets a turn: a spot
 * document is a few hundred bytes, and a synchronous read of one is a fraction of the cost of an
 * asynchronous one (its four trips through the thread pool); a chunk takes a few milliseconds.
 */
const READ_CHUNK = 100;
/** A chunk also ends after this many bytes (a folder of unusually large documents). */
const READ_CHUNK_BYTES = 4 * 1024 * 1024;
/** The first batch of markers goes to the map after this long; each later one waits twice as long as the one before, so a folder of any size costs a handful of batches. */
const FIRST_BATCH_MS = 200;

/** What a map shows: the files it watches (known once collect has begun), all its markers, and (for documents) one file's marker again after an edit. */
export interface MarkerSource {
  readonly watched: readonly vscode.Uri[];
  /**
   * `onBatch`: what was read so far, called while reading goes on; `complete` when it is the whole as
   * far as is known (what a folder's search will most likely find, all read, before the search
   * ends): the map then draws it as read, and what collect resolves with follows it. For a complete
   * batch, onBatch's promise says it was handed to the page: the search waits for that.
   */
  collect(onBatch?: (sofar: Collected, total: number, complete?: boolean) => void | Promise<unknown>, signal?: AbortSignal): Promise<Collected>;
  /** Undefined: an edit of a watched file collects everything again (a table's rows). */
  one?(uri: vscode.Uri): Promise<ShownMarker | SkippedSpot>;
}

export interface Collected {
  markers: ShownMarker[];
  /** Documents with no coordinates to place, and why (shown as text below the list). */
  skipped: SkippedSpot[];
  /** Where reading went (the map's log line): milliseconds in files (stat and read) and in making markers of their text. */
  spent?: { filesMs: number; markersMs: number };
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

/** The document's text as the editor has it, else from disk (synchronously for a file: see READ_CHUNK); undefined when it must be read through VS Code. */
function textNow(uri: vscode.Uri, open: Map<string, vscode.TextDocument>): string | undefined {
  const document = open.get(uri.toString());
  if (document) return document.getText();
  if (uri.scheme !== 'file') return undefined;
  // A file far larger than a spot document is not read (it would hold the extension host up).
  const stats = statSync(uri.fsPath);
  if (!stats.isFile()) throw new Error(vscode.l10n.t('not a file'));
  if (stats.size > MAX_DOCUMENT_BYTES) throw new Error(vscode.l10n.t('{0} bytes: larger than a spot document can be', stats.size));
  return readFileSync(uri.fsPath, 'utf8');
}

function markerFrom(uri: vscode.Uri, text: string, topics: TopicCatalog | undefined, facts: Shared): ShownMarker | SkippedSpot {
  const id = uri.toString();
  const result = spotMarkerFromText(text, { id, hasErrors: facts.withErrors.has(id), imported: facts.imported(uri), topics });
  if (!result.ok) return { id, reason: result.reason, ...(result.swap ? { swap: true } : {}) };
  return shownMarker(result.marker);
}

const failed = (uri: vscode.Uri, error: unknown): SkippedSpot => ({ id: uri.toString(), reason: error instanceof Error ? error.message : String(error) });

async function markerOf(uri: vscode.Uri, facts: Shared): Promise<ShownMarker | SkippedSpot> {
  try {
    const topics = await facts.topics(uri);
    const text = textNow(uri, facts.open) ?? new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    return markerFrom(uri, text, topics, facts);
  } catch (error) {
    return failed(uri, error);
  }
}

/** A file the last search found that is gone now: the new search drops it, so it is not listed as unreadable meanwhile. */
const isGone = (error: unknown): boolean => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

async function collectMarkers(
  services: MarkerServices,
  uris: readonly vscode.Uri[],
  onBatch?: (sofar: Collected, total: number) => void,
  signal?: AbortSignal,
  options: { dropGone?: boolean } = {},
): Promise<Collected> {
  const facts = shared(services);
  const spent = { filesMs: 0, markersMs: 0 };
  const collected: Collected = { markers: [], skipped: [], spent };
  const take = (result: ShownMarker | SkippedSpot) => ('reason' in result ? collected.skipped.push(result) : collected.markers.push(result));
  const started = Date.now();
  let nextBatch = FIRST_BATCH_MS;
  let next = 0;
  while (next < uris.length && !signal?.aborted) {
    const chunk = uris.slice(next, next + READ_CHUNK);
    // The catalogs of the chunk's folders (read once per folder), then its files in one go.
    const topics = await Promise.all(chunk.map((uri) => facts.topics(uri)));
    let bytes = 0;
    for (const [index, uri] of chunk.entries()) {
      next++;
      try {
        const before = performance.now();
        const text = textNow(uri, facts.open);
        const read = performance.now();
        take(text === undefined ? await markerOf(uri, facts) : markerFrom(uri, text, topics[index], facts));
        spent.filesMs += read - before;
        spent.markersMs += performance.now() - read;
        bytes += text?.length ?? 0;
      } catch (error) {
        if (!(options.dropGone && isGone(error))) take(failed(uri, error));
      }
      if (bytes > READ_CHUNK_BYTES) break;
    }
    const elapsed = Date.now() - started;
    if (onBatch && elapsed >= nextBatch && next < uris.length) {
      nextBatch = elapsed * 2;
      onBatch(collected, uris.length);
    }
    // The extension host's other work (typing, the map's messages) between chunks.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return collected;
}

/**
 * Documents found by a search. `likely` is what the search will most likely find (what the last
 * search of the same folders found, or a quick walk of them), known long before the search ends:
 * it is read and drawn first, and the search runs after that (on two cores, the workbench's file
 * search beside the reading and the page's drawing slowed both); then what the search does not
 * find is dropped and what it found besides is read. Without `likely` (undefined), reading waits
 * for the search.
 */
export interface DocumentSearch {
  likely(signal?: AbortSignal): Promise<readonly vscode.Uri[] | undefined>;
  /** Rejects when `signal` aborts it (the map was closed). */
  find(signal?: AbortSignal): Promise<readonly vscode.Uri[]>;
}

const isSearch = (given: readonly vscode.Uri[] | DocumentSearch): given is DocumentSearch => !Array.isArray(given);

/**
 * Spot documents, given or found when the map opens (a folder's likely documents are read while
 * its page loads, and searched for after they are drawn): each edit re-reads only the edited one.
 */
export function documentSource(services: MarkerServices, given: readonly vscode.Uri[] | DocumentSearch): MarkerSource {
  let uris: readonly vscode.Uri[] = isSearch(given) ? [] : given;
  return {
    get watched() {
      return uris;
    },
    collect: async (onBatch, signal) => {
      if (!isSearch(given)) return collectMarkers(services, uris, onBatch, signal);
      // A search stopped by the map's closing ends the reading with what was read.
      const search = () => given.find(signal).catch((error: unknown) => (signal?.aborted ? undefined : Promise.reject(error)));
      const likely = await given.likely(signal).catch(() => undefined);
      if (!likely) {
        uris = (await search()) ?? [];
        return collectMarkers(services, uris, onBatch, signal);
      }
      uris = likely;
      const first = await collectMarkers(services, likely, onBatch, signal, { dropGone: true });
      // Drawn as read: the search takes about a second more, and mostly finds what was read.
      if (!signal?.aborted) await onBatch?.(first, likely.length, true);
      const found = signal?.aborted ? undefined : await search();
      if (!found) return first;
      uris = found;
      const now = new Set(found.map(String));
      // What was read, not what was likely: a file gone while it was read and back since is new.
      const before = new Set([...first.markers, ...first.skipped].map((read) => read.id));
      const kept: Collected = {
        markers: first.markers.filter((marker) => now.has(marker.id)),
        skipped: first.skipped.filter((skip) => now.has(skip.id)),
        spent: first.spent,
      };
      const added = found.filter((uri) => !before.has(uri.toString()));
      // Nothing gone and nothing new: the whole is what was drawn.
      if (added.length === 0 && kept.markers.length === first.markers.length && kept.skipped.length === first.skipped.length) return first;
      if (added.length === 0 || signal?.aborted) return kept;
      void onBatch?.(kept, found.length);
      const more = await collectMarkers(services, added, undefined, signal);
      return {
        markers: [...kept.markers, ...more.markers],
        skipped: [...kept.skipped, ...more.skipped],
        spent: { filesMs: (first.spent?.filesMs ?? 0) + (more.spent?.filesMs ?? 0), markersMs: (first.spent?.markersMs ?? 0) + (more.spent?.markersMs ?? 0) },
      };
    },
    one: (uri) => markerOf(uri, shared(services)),
  };
}
