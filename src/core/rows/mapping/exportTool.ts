// Which form or observation tool wrote a table, told by the columns it always writes (see
// /work/shared/design/data-sources.md): the proposal names its spots' ids after the tool rather
// than after the file, whose name carries the download's date and changes with every export.

export interface ExportTool {
  /** The tool's name, for notes. */
  name: string;
  /** The start of the proposed source_id template: short and the same for every export of the tool. */
  prefix: string;
  /** The columns that say when the observation was made, the best first (a date-time field with no label of its own takes one). */
  time?: readonly string[];
  /**
   * The spatial reference of the ArcGIS layer the tool exports (Survey123's): its x and y, when
   * they are not degrees, are in it unless the layer was made in another.
   */
  layerCrs?: { code: `EPSG:${number}`; name: string };
}

interface ToolSignature extends ExportTool {
  /** Sets of columns: a table that has every column of one of them is this tool's. */
  columns: ReadonlyArray<readonly string[]>;
}

// The most specific first: KoBo and Epicollect5 tables carry columns no other tool writes.
const TOOLS: readonly ToolSignature[] = [
  { name: 'Epicollect5', prefix: 'ec5-', columns: [['ec5_uuid']], time: ['created_at'] },
  {
    name: 'KoBoToolbox',
    prefix: 'kobo-',
    // start: when the form was opened in the field; the submission's time is later.
    time: ['start', '_submission_time'],
    columns: [
      ['_uuid', '_submission_time'],
      ['_uuid', '_index'],
    ],
  },
  // A repeat group's table has KEY and PARENT_KEY only.
  {
    name: 'ODK Central',
    prefix: 'odk-',
    time: ['start', 'SubmissionDate'],
    columns: [
      ['KEY', 'SubmissionDate'],
      ['meta-instanceID', 'SubmissionDate'],
      ['KEY', 'meta-instanceID'],
      ['KEY', 'PARENT_KEY'],
    ],
  },
  {
    name: 'Survey123',
    prefix: 'survey123-',
    time: ['CreationDate', 'creationdate'],
    layerCrs: { code: 'EPSG:3857', name: 'Web Mercator' },
    columns: [
      ['GlobalID', 'ObjectID'],
      ['globalid', 'objectid'],
    ],
  },
  {
    name: 'iNaturalist',
    prefix: 'inat-',
    time: ['time_observed_at'],
    columns: [
      ['observed_on', 'time_observed_at'],
      ['observed_on', 'quality_grade'],
    ],
  },
  { name: 'GBIF', prefix: 'gbif-', columns: [['gbifID'], ['occurrenceID', 'basisOfRecord']] },
];

/** The tool whose columns the table has, if any. */
export function recogniseExportTool(columns: readonly string[]): ExportTool | undefined {
  const present = new Set(columns);
  const tool = TOOLS.find((candidate) => candidate.columns.some((set) => set.every((column) => present.has(column))));
  return tool
    ? { name: tool.name, prefix: tool.prefix, ...(tool.time ? { time: tool.time } : {}), ...(tool.layerCrs ? { layerCrs: tool.layerCrs } : {}) }
    : undefined;
}
