// One row from a JSON object in a jsonc-parser tree: a GeoJSON Feature (its properties are the
// values, its geometry and id are kept) or, on an NDJSON line, a plain object (its members are the
// values). Shared by geojsonTable.ts and ndjsonRows.ts, so a feature reads the same from either.
// Each value's position is its first character.
import type { Node } from 'jsonc-parser';
import { l10n } from '../../text/l10n';
import { jsonValue, setOwn } from './ownMembers';
import type { CellPosition, RowReadProblem, SourceGeometry, SourceRow } from './types';

/** Where an offset of the parsed text is in the file. */
export type PositionOf = (offset: number) => CellPosition;

/** A GeoJSON Feature as a row; `what` names it for a problem ("feature 3", "line 5": the subject of each message). */
export function featureRow(feature: Node, row: number, at: PositionOf, what: string): SourceRow | RowReadProblem {
  const start = at(feature.offset);
  const problem = (text: string, node: Node = feature): RowReadProblem => ({ problem: text, ...at(node.offset), row });
  if (feature.type !== 'object') return problem(l10n.t('{0} is not a GeoJSON Feature: it is {1}', what, describe(feature)));
  const members = memberNodes(feature);
  const type = members.get('type');
  if (type?.value !== 'Feature') {
    const message = type
      ? l10n.t('{0} is not a GeoJSON Feature: its type is {1}', what, JSON.stringify(jsonValue(type)))
      : l10n.t('{0} is not a GeoJSON Feature: its type is missing', what);
    return problem(message, type ?? feature);
  }
  const properties = members.get('properties');
  let values: Record<string, unknown> = {};
  let cells: Record<string, CellPosition> = {};
  if (properties && properties.type !== 'null') {
    if (properties.type !== 'object') return problem(l10n.t('{0} has properties that are not an object: they are {1}', what, describe(properties)), properties);
    const read = objectValues(properties, at);
    if ('repeated' in read) return problem(l10n.t('{0} names the property "{1}" twice', what, read.repeated.name), read.repeated.node);
    ({ values, cells } = read);
  }
  const result: SourceRow = { row, line: start.line, values, cells };
  const geometry = members.get('geometry');
  if (geometry && geometry.type !== 'null') {
    const read = geometryOf(geometry, at, what);
    if (typeof read === 'string') return problem(read, geometry);
    result.geometry = read;
  } else result.noGeometryAt = geometry ? at(geometry.offset) : start;
  const id = members.get('id');
  if (id && (id.type === 'string' || id.type === 'number')) result.id = { value: id.value as string | number, position: at(id.offset) };
  return result;
}

/** A plain object as a row: its members are the values. */
function objectRow(object: Node, row: number, at: PositionOf, what: string): SourceRow | RowReadProblem {
  const start = at(object.offset);
  if (object.type !== 'object') return { problem: l10n.t('{0} is not a JSON object: it is {1}', what, describe(object)), ...start, row };
  const read = objectValues(object, at);
  if ('repeated' in read) return { problem: l10n.t('{0} names the member "{1}" twice', what, read.repeated.name), ...at(read.repeated.node.offset), row };
  return { row, line: start.line, ...read };
}

/** An NDJSON line's object: a GeoJSON Feature when it says so, else a plain object. */
export function lineRow(object: Node, row: number, at: PositionOf, what: string): SourceRow | RowReadProblem {
  return object.type === 'object' && memberNodes(object).get('type')?.value === 'Feature'
    ? featureRow(object, row, at, what)
    : objectRow(object, row, at, what);
}

/** Member names of an object, in order (for the table's columns). */
export function memberNames(object: Node): string[] {
  return (object.children ?? []).map((member) => String(member.children?.[0].value));
}

/**
 * An object's members as values with positions. A member named twice is refused rather than one
 * of the two taken: which one the user meant cannot be known (the rule spot documents follow).
 */
function objectValues(
  object: Node,
  at: PositionOf,
): { values: Record<string, unknown>; cells: Record<string, CellPosition> } | { repeated: { name: string; node: Node } } {
  const values: Record<string, unknown> = {};
  const cells: Record<string, CellPosition> = {};
  for (const member of object.children ?? []) {
    const [key, value] = member.children ?? [];
    const name = String(key.value);
    if (Object.prototype.hasOwnProperty.call(values, name)) return { repeated: { name, node: key } };
    setOwn(values, name, value ? jsonValue(value) : undefined);
    setOwn(cells, name, at((value ?? key).offset));
  }
  return { values, cells };
}

/** The geometry, or the problem with it (a whole message, `what` its subject). */
function geometryOf(geometry: Node, at: PositionOf, what: string): SourceGeometry | string {
  if (geometry.type !== 'object') return l10n.t('{0} has a geometry that is not an object: it is {1}', what, describe(geometry));
  const members = memberNodes(geometry);
  const type = members.get('type');
  if (type?.type !== 'string') return l10n.t('{0} has a geometry without a type', what);
  const coordinates = members.get('coordinates') ?? members.get('geometries');
  return {
    type: type.value as string,
    coordinates: coordinates ? jsonValue(coordinates) : undefined,
    position: at((coordinates ?? geometry).offset),
  };
}

/** An object's member value nodes by name (the last, when one is named twice). */
export function memberNodes(object: Node): Map<string, Node> {
  const members = new Map<string, Node>();
  for (const member of object.children ?? []) {
    const [key, value] = member.children ?? [];
    if (value) members.set(String(key.value), value);
  }
  return members;
}

/** A JSON value in words, for "it is …": "an object", "the string \"x\"". */
function describe(node: Node): string {
  switch (node.type) {
    case 'object':
      return l10n.t('an object');
    case 'array':
      return l10n.t('an array');
    case 'null':
      return 'null';
    case 'string':
      return l10n.t('the string {0}', JSON.stringify(node.value));
    case 'number':
      return l10n.t('the number {0}', JSON.stringify(node.value));
    case 'boolean':
      return l10n.t('the boolean {0}', JSON.stringify(node.value));
    default:
      return `the ${node.type} ${JSON.stringify(node.value)}`;
  }
}
