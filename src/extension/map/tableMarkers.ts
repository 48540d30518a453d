// A table with its mapping on the map: each row becomes the spot document the import would send
// (the tables' own checks: src/extension/tables/tableChecks.ts and the core's checkRow), and that document
// a marker, so a row is placed, named and judged exactly as its import would be. One pass over
// the table; a click opens the table at the row's latitude cell (a folder of photos: the photo).
import * as vscode from 'vscode';
import { spotMarkerFromText } from '../../core/map';
import type { CommandServices } from '../commands/commandTable';
import { requireMapping, tableTarget } from '../tables/commands/tableTarget';
import { BUILT_IN_COMMAND } from '../platform/commandIds';
import { ActionableError } from '../platform/errors';
import { importedTest, shownMarker, type Collected, type MarkerSource } from './collectMarkers';

export async function tableSource(services: CommandServices, given: vscode.Uri): Promise<MarkerSource & { name: string }> {
  const target = await tableTarget(given);
  await requireMapping(target);
  const collect = async (): Promise<Collected> => {
    const { checks } = await services.tables.ready();
    const state = checks.state(target.table) ?? (await checks.checkNow(target.table));
    if (!state)
      throw new ActionableError(vscode.l10n.t('{0} could not be read as a table: see the Problems panel.', target.name), [
        { title: vscode.l10n.t('Show Problems'), command: BUILT_IN_COMMAND.showProblems },
      ]);
    if (state.mappingBroken)
      throw new ActionableError(vscode.l10n.t('{0} cannot be shown on the map: its mapping has problems.', target.name), [
        { title: vscode.l10n.t('Show Problems'), command: BUILT_IN_COMMAND.showProblems },
      ]);
    const opened = await checks.open(target.table, state.mapping);
    const mapping = opened?.mapped.mapping;
    if (!opened || !mapping) return { markers: [], skipped: [] };
    const imported = importedTest(services)(target.table);
    const collected: Collected = { markers: [], skipped: [] };
    // A folder of photos: a marker is its photo (named by it, and a click opens it), not a line of a file.
    const photoOf = opened.mapped.table.format.format === 'photos' ? opened.rows.cellNamer(opened.mapped.table.format) : undefined;
    try {
      for await (const read of opened.mapped.table.rows()) {
        // The photo's path in the folder (a folder of them, grouped), for a row and for a problem alike.
        const photo = photoOf ? vscode.Uri.joinPath(target.table, photoOf({ line: read.line, column: 1 })) : undefined;
        const id = photo ? photo.toString() : `${target.table.toString()}#L${read.line}`;
        if ('problem' in read) {
          collected.skipped.push({ id, reason: read.problem });
          continue;
        }
        const checked = await opened.rows.checkRow(target.table.fsPath, read, mapping, { topics: opened.topics });
        if (!checked.spot) {
          collected.skipped.push({ id, reason: checked.findings[0]?.message ?? vscode.l10n.t('the row could not be read') });
          continue;
        }
        const result = spotMarkerFromText(checked.spot.text, {
          id,
          hasErrors: checked.findings.some((finding) => finding.severity === 'error'),
          imported,
          topics: opened.topics,
        });
        if (!result.ok) {
          collected.skipped.push({ id, reason: vscode.l10n.t('row {0}: {1}', checked.row ?? '?', result.reason) });
          continue;
        }
        // The line in the table, not in the row's document: the latitude's cell, else the row's first line.
        const line = (checked.spot.cells.get('/data/attributes/latitude')?.line ?? checked.line) - 1;
        collected.markers.push(photo ? shownMarker({ ...result.marker, line: 0 }) : shownMarker({ ...result.marker, line }, target.table.toString()));
      }
    } finally {
      await opened.copy.dispose();
    }
    return collected;
  };
  return { watched: [target.table, target.mapping], collect, name: target.name };
}
