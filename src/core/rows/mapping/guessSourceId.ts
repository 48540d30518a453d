// The proposed source_id: what makes a row the same spot in next month's export of the same form.
// That is the export's own stable id of a record (KoBo's _uuid, ODK's KEY, Survey123's GlobalID,
// GBIF's occurrenceID, Epicollect5's ec5_uuid), never a row number (ObjectID, FID, _index), which
// a re-export renumbers, and never a column some row leaves empty (that row would have no id).
// The template's prefix is the tool's or the file's name without its date: a prefix carrying the
// download's timestamp would make the next export a second set of spots.
import { basename } from 'node:path';
import { l10n } from '../../text/l10n';
import type { SourceRow } from '../read';
import type { ExportTool } from './exportTool';
import { FEATURE_ID } from './mappingSchema';

export interface SourceIdGuess {
  /** The source_id template, e.g. "kobo-{_uuid}". */
  template: string;
  /** The column it names. */
  column: string;
  notes: string[];
}

/** The ids exports give each record for good, best first. */
const STABLE_IDS = ['_uuid', 'ec5_uuid', 'KEY', 'meta-instanceID', 'instanceID', 'meta/instanceID', 'GlobalID', 'occurrenceID', 'uuid', 'globalid'];
/** Ids that usually stay (iNaturalist's and GBIF's numbers, OpenStreetMap's "node/123"), but not everywhere. */
const OTHER_IDS = ['id', '@id', 'gbifID', 'osm_id'];
/** Numbers a database or a GIS gives the rows of one export: a re-export may renumber them. */
const ROW_NUMBERS = ['ObjectID', 'OBJECTID', 'objectid', 'FID', 'fid', '_id', '_index', 'gid', 'ogc_fid', 'rowid'];

export function guessSourceId(path: string, columns: readonly string[], sample: readonly SourceRow[], tool: ExportTool | undefined): SourceIdGuess {
  const notes: string[] = [];
  const emptyIn = (column: string) => sample.find((row) => cellText(row.values[column]) === '')?.row;
  const named = (names: readonly string[]) => names.filter((name) => columns.includes(name));
  const usable = (column: string) => {
    const row = emptyIn(column);
    if (row !== undefined) notes.push(l10n.t('source_id: not the column {0}, which is empty in row {1}', column, row));
    return row === undefined;
  };
  const prefix = stablePrefix(path, tool);
  const candidates = [...named(STABLE_IDS), ...named(OTHER_IDS), ...named(ROW_NUMBERS)];
  const say = (column: string, kind: 'stable' | 'other' | 'rowNumber' | 'first'): SourceIdGuess => {
    const template = `${prefix}{${column}}`;
    const also = candidates.filter((other) => other !== column && emptyIn(other) === undefined);
    notes.push(
      kind === 'stable'
        ? l10n.t("source_id: {0}, from the column {1}, the export's own id of each record", template, column)
        : kind === 'other'
          ? l10n.t('source_id: {0}, from the column {1}: check that it identifies each row for good', template, column)
          : kind === 'rowNumber'
            ? l10n.t(
                'source_id: {0}, from the column {1}, a row number: a later export may number its rows anew; name a column that identifies each row for good',
                template,
                column,
              )
            : column === columns[0]
              ? l10n.t('source_id: {0}, from the first column: name a column that identifies each row for good', template)
              : l10n.t(
                  'source_id: {0}, from the column {1}, the first with a different value in each row looked at: name a column that identifies each row for good',
                  template,
                  column,
                ),
    );
    if (also.length > 0) notes.push(l10n.t('source_id: other columns that look like ids: {0}', also.join(', ')));
    notes.push(prefixNote(prefix, tool));
    return { template, column, notes };
  };
  const stable = named(STABLE_IDS).find(usable);
  if (stable !== undefined) return say(stable, 'stable');
  // A GeoJSON layer's features may carry their own id (a WFS's "arbres.1", Overpass's "node/1"): next after the stable columns.
  if (sample.length > 0 && sample.every((row) => row.id !== undefined) && new Set(sample.map((row) => String(row.id!.value))).size === sample.length) {
    const template = `${prefix}{${FEATURE_ID}}`;
    notes.push(l10n.t("source_id: {0}, from each feature's own id member", template));
    notes.push(prefixNote(prefix, tool));
    return { template, column: FEATURE_ID, notes };
  }
  for (const [names, kind] of [
    [OTHER_IDS, 'other'],
    [ROW_NUMBERS, 'rowNumber'],
  ] as const) {
    const column = named(names).find(usable);
    if (column !== undefined) return say(column, kind);
  }
  // No column is named like an id: the first whose values are all there and all different.
  const column =
    columns.find((candidate) => emptyIn(candidate) === undefined && new Set(sample.map((row) => cellText(row.values[candidate]))).size === sample.length) ??
    columns[0];
  if (column === undefined) {
    // Nothing to take it from (no column in the rows looked at): a placeholder the check will name.
    notes.push(l10n.t('source_id: the rows looked at have no columns: name the one that identifies each row for good'));
    return { template: `${prefix}{id}`, column: 'id', notes };
  }
  return say(column, 'first');
}

/**
 * The tool's prefix ("kobo-"), else the file's name without what changes from one export to the
 * next: dates and times ("2022-08-01-05-36-18", "20220801"), numbers at its end, a copy's "(1)".
 */
function stablePrefix(path: string, tool: ExportTool | undefined): string {
  if (tool) return tool.prefix;
  const stem = basename(path)
    .replace(/\.[^.]+$/, '')
    .replace(/\d{4}-\d{2}-\d{2}(?:[T _-]\d{2}[-:_.]?\d{2}(?:[-:_.]?\d{2})?)?/g, '')
    .replace(/\d{8}(?:[T_-]?\d{6})?/g, '')
    .replace(/\(\d+\)/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/[-_]{2,}/g, '-')
    .replace(/^[_-]+|[_-]+$/g, '')
    .replace(/(?:[_-]\d+)+$/, '');
  return `${stem || 'rows'}-`;
}

function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value.trim() : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Why the template's prefix holds no date: the tool's, or the file's name without what changes. */
function prefixNote(prefix: string, tool: ExportTool | undefined): string {
  return tool
    ? l10n.t("source_id: the prefix {0} is the tool ({1}), not the file's name: an export of another day finds the same spots", prefix, tool.name)
    : l10n.t("source_id: the prefix {0} is the file's name without its dates and numbers: an export of another day finds the same spots", prefix);
}
