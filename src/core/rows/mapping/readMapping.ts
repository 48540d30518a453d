// Reads a mapping file and checks it against what it maps: the table's columns, the topic
// definitions, the media folders. Every problem is placed on the mapping file (its member name or
// value), so the editor shows it as the user types and the command line prints file:line:col.
import { decodeDefinitionText, MAX_DEFINITION_BYTES } from '../../documents/readDocument';
import { promises as fs } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Node } from 'jsonc-parser';
import { parseCheckedJson, problemAt } from '../../documents/checkedJson';
import type { LocatedProblem } from '../../documents/parseSpotText';
import { mappingTooDeepMessage } from '../../documents/nesting';
import { isGalleryField } from '../../api/spotSchema';
import { l10n } from '../../text/l10n';
import { closestName } from '../../topics/suggestMember';
import { KNOWN_SPOT_MEMBERS, type TopicCatalog } from '../../topics/topicSchema';
import { FEATURE_ID, mappingSchema, type Mapping } from './mappingSchema';
import { archiveFolder } from './archiveMedia';
import { crsProblems, type TableCrs } from './checkCrs';
import { withMembers } from '../../objects/withMembers';
import type { TableArchive } from '../read/types';

export const MAPPING_RULES = {
  syntax: 'mapping.syntax',
  schema: 'mapping.schema',
  /** A column the table does not have. */
  unknownColumn: 'mapping.unknownColumn',
  /** A field the topic definition does not define, or a media field that is not a gallery. */
  unknownField: 'mapping.unknownField',
  /** A media folder that is not there. */
  missingFolder: 'mapping.missingFolder',
  /** Something a mapping needs that it does not say (the coordinates of a CSV). */
  incomplete: 'mapping.incomplete',
  /** A topic_id the project's topic definitions do not define (a warning: the service still checks). */
  undefinedTopic: 'mapping.undefinedTopic',
  /** A crs that cannot be used (the mapping's, or the file's own when the mapping names none), or a mapping's that disagrees with the file's. */
  crs: 'mapping.crs',
} as const;

export type MappingProblem = LocatedProblem & { rule: string };

export interface ParsedMapping {
  path: string;
  text: string;
  /** The mapping, when the file itself is sound (its schema): the checks against the table come after. */
  mapping?: Mapping;
  root?: Node;
  problems: MappingProblem[];
}

export function parseMapping(path: string, text: string): ParsedMapping {
  const checked = parseCheckedJson(text, mappingSchema, {
    what: l10n.t({
      message: 'a mapping',
      args: [],
      comment: ['What the file is, in "The file is empty: a mapping is a JSON object." and "x is not a member of a mapping."'],
    }),
    subject: l10n.t({ message: 'The mapping', args: [], comment: ['A mapping file as a whole, at the start of "The mapping must be an object."'] }),
    tooDeep: mappingTooDeepMessage,
    rules: { syntax: MAPPING_RULES.syntax, schema: MAPPING_RULES.schema },
  });
  return { path, text, mapping: checked.value, root: checked.root, problems: checked.problems };
}

export async function readMappingFile(path: string): Promise<ParsedMapping> {
  let text: string;
  try {
    // Strict, as topic definitions are read: a Latin-1 "Länge" would become a column that is not there.
    // Their size cap too: a file of hundreds of MB named as a mapping is refused before it is read.
    const handle = await fs.open(path, 'r');
    try {
      const size = (await handle.stat()).size;
      if (size > MAX_DEFINITION_BYTES)
        throw new Error(l10n.t('it is {0} MiB, larger than a mapping can be ({1} MiB)', Math.round(size / 1048576), MAX_DEFINITION_BYTES / 1048576));
      text = decodeDefinitionText(await handle.readFile());
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A missing mapping keeps its code: the front end says how to make one for the table it was asked about.
    if (code === 'ENOENT') throw Object.assign(new Error(l10n.t('There is no mapping {0}.', path)), { code });
    throw new Error(l10n.t('The mapping {0} cannot be read: {1}', path, (error as Error).message));
  }
  return parseMapping(path, text.replace(/^\uFEFF/, ''));
}

export interface MappingContext {
  /** The table's columns (its header, the GeoJSON properties seen, the NDJSON members seen). */
  columns: readonly string[];
  /** The rows are GeoJSON features (SourceTable.hasGeometry): each has a geometry, so latitude and longitude may be left out. */
  hasGeometry: boolean;
  topics?: TopicCatalog;
  /** Where the table is, for messages. */
  sourceName: string;
  /** The table was read from this archive: its media folders are folders in it. */
  archive?: TableArchive;
  /** The coordinate system the table names itself (a GeoJSON's crs member, a shapefile's .prj). */
  crs?: TableCrs;
}

/** The rules the schema cannot say: names of columns, fields and folders that must exist. */
export async function checkMapping(parsed: ParsedMapping, context: MappingContext): Promise<MappingProblem[]> {
  const { mapping, root } = parsed;
  if (!mapping) return [];
  const problems: MappingProblem[] = [];
  const columns = new Set(context.columns);
  const unknownColumn = (path: Array<string | number>, name: string) => {
    if (columns.has(name)) return;
    const meant = closestName(name, columns) ?? context.columns.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    const known = context.columns.length > 12 ? `${context.columns.slice(0, 12).join(', ')}, …` : context.columns.join(', ');
    const message = meant
      ? l10n.t('{0} has no column "{1}"; did you mean "{2}"?', context.sourceName, name, meant)
      : l10n.t('{0} has no column "{1}" (its columns: {2}).', context.sourceName, name, known);
    problems.push(problemAt(root, path, message, MAPPING_RULES.unknownColumn));
  };
  if (typeof mapping.topic_id === 'object') unknownColumn(['topic_id', 'column'], mapping.topic_id.column);
  for (const name of templateColumns(mapping.source_id)) {
    if (name !== FEATURE_ID) unknownColumn(['source_id'], name);
    else if (!context.hasGeometry)
      problems.push(
        problemAt(
          root,
          ['source_id'],
          l10n.t("{0} is a GeoJSON feature's own id: the rows of {1} are not features; name a column instead.", `{${FEATURE_ID}}`, context.sourceName),
          MAPPING_RULES.unknownColumn,
        ),
      );
  }
  // A place is one pair of columns, or one column of WKT, or one of latitude and longitude together.
  const placeColumns = (['wkt', 'position'] as const).filter((member) => mapping[member] !== undefined);
  for (const member of placeColumns) {
    const place = mapping[member]!;
    if (typeof place === 'string') unknownColumn([member], place);
    else unknownColumn([member, 'column'], place.column);
    if (mapping.latitude !== undefined || mapping.longitude !== undefined)
      problems.push(
        problemAt(
          root,
          [member],
          l10n.t('{0} and latitude, longitude name the place twice: keep the one column or the two.', member),
          MAPPING_RULES.incomplete,
        ),
      );
  }
  if (placeColumns.length > 1)
    problems.push(problemAt(root, ['position'], l10n.t('wkt and position name the place twice: keep one of them.'), MAPPING_RULES.incomplete));
  for (const member of ['latitude', 'longitude'] as const) {
    const name = mapping[member];
    if (name !== undefined) unknownColumn([member], name);
    else if (!context.hasGeometry && placeColumns.length === 0)
      problems.push(
        problemAt(
          root,
          [],
          l10n.t(
            "{0} is required: the column of each row's {0} (a GeoJSON layer takes its Point geometry instead; wkt names a column of places as Well-Known Text, position one of latitude and longitude in one cell).",
            member,
          ),
          MAPPING_RULES.incomplete,
        ),
      );
  }
  for (const member of ['state', 'privacy_type'] as const) {
    const value = mapping[member];
    if (typeof value === 'object') unknownColumn([member, 'column'], value.column);
  }
  problems.push(...crsProblems(root, mapping, context, MAPPING_RULES.crs));
  const definition = typeof mapping.topic_id === 'number' ? context.topics?.get(mapping.topic_id) : undefined;
  if (typeof mapping.topic_id === 'number' && !definition && context.topics && context.topics.size > 0)
    problems.push(undefinedTopicProblem(root, mapping.topic_id, context.topics));
  for (const [attribute, spec] of Object.entries(mapping.fields ?? {})) {
    const name = typeof spec === 'string' ? spec : spec.column;
    if (name !== undefined) unknownColumn(['fields', attribute, ...(typeof spec === 'string' ? [] : ['column'])], name);
    if (typeof spec === 'object') {
      for (const zone of ['timezone', 'inputTimezone'] as const) {
        const given = spec[zone];
        if (typeof given === 'object') unknownColumn(['fields', attribute, zone, 'column'], given.column);
      }
    }
    if (KNOWN_SPOT_MEMBERS.includes(attribute)) {
      problems.push(
        problemAt(
          root,
          ['fields', attribute],
          l10n.t('{0} is a member of every spot: map it at the top of the mapping, not under fields.', attribute),
          MAPPING_RULES.unknownField,
          'key',
        ),
      );
    } else if (definition && !Object.hasOwn(definition.fields, attribute)) {
      const meant = closestName(attribute, Object.keys(definition.fields));
      problems.push(
        problemAt(root, ['fields', attribute], notAField(attribute, definition.topic_id, definition.name, meant), MAPPING_RULES.unknownField, 'key'),
      );
    }
  }
  const folder = dirname(parsed.path);
  for (const [field, spec] of Object.entries(mapping.media ?? {})) {
    spec.columns.forEach((name, index) => unknownColumn(['media', field, 'columns', index], name));
    if (definition && !isGalleryField(field, definition)) {
      problems.push(
        problemAt(
          root,
          ['media', field],
          l10n.t('{0} is not a gallery field of topic {1}: its media cannot go there.', field, definition.topic_id),
          MAPPING_RULES.unknownField,
          'key',
        ),
      );
    }
    if (context.archive) {
      const missing = archiveFolderProblem(context.archive, spec.folder, context.sourceName);
      if (missing) problems.push(problemAt(root, ['media', field, ...(spec.folder !== undefined ? ['folder'] : [])], missing, MAPPING_RULES.missingFolder));
      continue;
    }
    const where = resolve(folder, spec.folder ?? '.');
    const isFolder = await fs.stat(where).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    if (!isFolder)
      problems.push(
        problemAt(
          root,
          ['media', field, ...(spec.folder !== undefined ? ['folder'] : [])],
          l10n.t('The media folder {0} ({1}) is not there.', spec.folder ?? '.', where),
          MAPPING_RULES.missingFolder,
        ),
      );
  }
  return problems;
}

/** Why a media folder is not one of the archive's, or undefined when it is. */
function archiveFolderProblem(archive: TableArchive, folder: string | undefined, sourceName: string): string | undefined {
  const inside = archiveFolder(folder);
  if (inside === undefined) return l10n.t('The media folder {0} is outside the archive {1}: name a folder inside it, e.g. "media".', folder ?? '.', sourceName);
  if (inside === '' || archive.names().some((name) => name.startsWith(`${inside}/`))) return undefined;
  return l10n.t('The archive {0} has no folder {1}.', sourceName, inside);
}

/** A field the topic does not define, with the topic's name when it has one and the field that was probably meant. */
/**
 * Every row's fields would go unchecked until the service sees them (a typo'd 21 for 12 too): said
 * once, at the mapping, rather than on every row. A warning: topics may be defined on the service only.
 */
function undefinedTopicProblem(root: Node | undefined, topicId: number, topics: TopicCatalog): MappingProblem {
  const known = [...topics.keys()].sort((a, b) => a - b).join(', ');
  const message = l10n.t(
    "topic {0} has no definition among the project's topics ({1}): the rows' fields are not checked here, only when the service receives them.",
    topicId,
    known,
  );
  return withMembers(problemAt(root, ['topic_id'], message, MAPPING_RULES.undefinedTopic), { severity: 'warning' as const });
}

function notAField(attribute: string, topicId: number, topicName: string | undefined, meant: string | undefined): string {
  if (topicName) {
    return meant
      ? l10n.t('{0} is not a field of topic {1} ({2}); did you mean {3}?', attribute, topicId, topicName, meant)
      : l10n.t('{0} is not a field of topic {1} ({2}).', attribute, topicId, topicName);
  }
  return meant
    ? l10n.t('{0} is not a field of topic {1}; did you mean {2}?', attribute, topicId, meant)
    : l10n.t('{0} is not a field of topic {1}.', attribute, topicId);
}

/** The column names a source_id template names: "kobo-{_uuid}" → ["_uuid"]. */
export function templateColumns(template: string): string[] {
  return [...template.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]);
}
