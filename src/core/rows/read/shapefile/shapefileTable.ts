// A shapefile layer as a table: `layer.shp` (the geometries) with `layer.dbf` (the attributes: the
// columns), `layer.prj` (its coordinate system, the table's crs when it names one this project
// knows) and `layer.cpg` (the attributes' encoding; else the DBF's language driver byte; else
// latin1). Each feature is a row, read as the files are (the shapefile library reads the shapes
// a record at a time, dbfRecords.ts the attributes), its geometry taken as a GeoJSON feature's is;
// a feature is named by its number (`layer.shp: feature 12`). Loaded only when a shapefile is opened.
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { open as openFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { throwIfAborted } from '../../../api/errors';
import { l10n } from '../../../text/l10n';
import { columnNames } from '../columnNames';
import { memberSetter } from '../ownMembers';
import { TableReadError } from '../tableReadError';
import type { CellPosition, RowReadProblem, SourceEncoding, SourceRow, SourceTable, TableFormat } from '../types';
import { dbfLayout, dbfRecords, type DbfLayout, type DbfRecord } from './dbfRecords';

/** The DBF's language driver byte (offset 29) → its code page, for the ones exports write. */
const LANGUAGE_DRIVERS: Record<number, SourceEncoding> = {
  0x01: 'latin1',
  0x02: 'latin1',
  0x03: 'windows-1252',
  0x57: 'windows-1252',
  0x58: 'windows-1252',
  0x59: 'windows-1252',
  0xc8: 'windows-1250',
};

/** A layer's files: the geometries and attributes as paths (read as they are needed) or bytes (from an archive), its .prj and .cpg as text. */
export interface LayerFiles {
  shp: string | Uint8Array;
  dbf: string | Uint8Array;
  /** What messages call the attribute file, the .prj and the .cpg. */
  names: { dbf: string; prj: string; cpg: string };
  prj?: string;
  cpg?: string;
}

/** @public (openTable.ts loads this module with require() when a shapefile is opened) */
export async function openShapefile(path: string, given: { encoding?: SourceEncoding }): Promise<SourceTable> {
  const base = path.replace(/\.shp$/i, '');
  const dbf = sibling(base, 'dbf');
  if (!existsSync(path)) throw new TableReadError(path, l10n.t('there is no such file'));
  if (!dbf) throw new TableReadError(path, l10n.t('its attributes ({0}) are not beside it', `${basename(base)}.dbf`));
  const prj = sibling(base, 'prj');
  const cpg = sibling(base, 'cpg');
  const names = { dbf: basename(dbf), prj: basename(prj ?? `${base}.prj`), cpg: basename(cpg ?? `${base}.cpg`) };
  return layerTable(
    path,
    { shp: path, dbf, names, ...(prj ? { prj: readFileSync(prj, 'utf8') } : {}), ...(cpg ? { cpg: readFileSync(cpg, 'utf8') } : {}) },
    given,
  );
}

/** The layer's table, from its files wherever they are (beside each other, in an archive). */
export async function layerTable(path: string, files: LayerFiles, given: { encoding?: SourceEncoding }): Promise<SourceTable> {
  const detected: string[] = [];
  const header = typeof files.dbf === 'string' ? await dbfHeaderOf(files.dbf) : Buffer.from(files.dbf.buffer, files.dbf.byteOffset, files.dbf.byteLength);
  const encoding = given.encoding ?? encodingOf(files, header, detected);
  const layout = dbfLayout(path, files.names.dbf, header, encoding);
  // Names as a CSV header's are made: DBF cuts names to 10 characters, so observation_date and
  // observation_time are both OBSERVATIO, and one value went under the other's name.
  const { columns, notes } = columnNames(layout.fields.map((field) => field.name));
  layout.fields.forEach((field, i) => (field.name = columns[i]));
  detected.push(...notes);
  const format: TableFormat = { format: 'shapefile', encoding };
  return {
    path,
    format,
    detected,
    columns,
    // Its EPSG code is worked out where the coordinate systems are known (values/prjCrs.ts).
    ...(files.prj !== undefined ? { prj: { text: files.prj, name: files.names.prj } } : {}),
    hasGeometry: true,
    rows: (signal) => shapefileRows(path, files, layout, encoding, signal),
  };
}

/** layer.dbf, or LAYER.DBF as some tools write it. */
function sibling(base: string, extension: string): string | undefined {
  return [`${base}.${extension}`, `${base}.${extension.toUpperCase()}`].find((candidate) => existsSync(candidate));
}

/** The DBF's header and field descriptors (what comes before its first record; at most 64 KiB). */
async function dbfHeaderOf(dbf: string): Promise<Buffer> {
  const handle = await openFile(dbf, 'r');
  try {
    const header = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(header, 0, header.length, 0);
    return header.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function encodingOf(files: LayerFiles, header: Buffer, detected: string[]): SourceEncoding {
  if (files.cpg !== undefined) {
    const cpg = files.names.cpg;
    const named = files.cpg.trim().toLowerCase().replace(/[\s_]/g, '-');
    // 65001 is UTF-8's Windows code page number, as ArcGIS writes it.
    const encoding: SourceEncoding | undefined = /^(utf-?8|65001)$/.test(named)
      ? 'utf-8'
      : /^(cp-?|windows-?|ansi-?)?1252$/.test(named)
        ? 'windows-1252'
        : /^(cp-?|windows-?|ansi-?)?1250$/.test(named)
          ? 'windows-1250'
          : /^(iso-?)?8859-?1$|^latin-?1$/.test(named)
            ? 'latin1'
            : undefined;
    if (encoding) {
      detected.push(l10n.t('encoding {0} (from {1})', encoding, cpg));
      return encoding;
    }
    detected.push(l10n.t('{0} names the encoding "{1}", which is not read: latin1 is used', cpg, named));
    return 'latin1';
  }
  const encoding = LANGUAGE_DRIVERS[header[29]];
  if (encoding) {
    detected.push(l10n.t("encoding {0} (the DBF's language driver)", encoding));
    return encoding;
  }
  detected.push(l10n.t('encoding latin1 (no .cpg beside it, and the DBF does not say)'));
  return 'latin1';
}

/** The .shp's length as its header gives it (bytes 24 to 27, big-endian, in 16-bit words) and as it is. */
async function shpLengths(shp: string | Uint8Array): Promise<{ declared: number; actual: number }> {
  if (typeof shp !== 'string') return { declared: shp.length >= 28 ? Buffer.from(shp.buffer, shp.byteOffset, 28).readInt32BE(24) * 2 : 0, actual: shp.length };
  const handle = await openFile(shp, 'r');
  try {
    const header = Buffer.alloc(28);
    const { bytesRead } = await handle.read(header, 0, 28, 0);
    return { declared: bytesRead === 28 ? header.readInt32BE(24) * 2 : 0, actual: (await stat(shp)).size };
  } finally {
    await handle.close();
  }
}

/**
 * The shapes and the attribute records side by side, the Nth record for the Nth shape. A record
 * marked deleted leaves its feature out (as GIS tools show the layer); the features keep their numbers.
 */
async function* shapefileRows(
  path: string,
  files: LayerFiles,
  layout: DbfLayout,
  encoding: SourceEncoding,
  signal?: AbortSignal,
): AsyncGenerator<SourceRow | RowReadProblem> {
  throwIfAborted(signal);
  const shapefile = require('shapefile') as typeof import('shapefile');
  const records = dbfRecords(files.dbf, layout, encoding);
  const setCell = memberSetter(layout.fields.map((field) => field.name));
  // A stream of ours rather than the library's own file reader, which stays open when the library refuses the layer.
  const shpStream = typeof files.shp === 'string' ? createReadStream(files.shp) : undefined;
  let shapes: Awaited<ReturnType<typeof shapefile.openShp>> | undefined;
  try {
    try {
      shapes = await shapefile.openShp(shpStream ?? files.shp);
    } catch (error) {
      yield { line: 1, column: 1, problem: l10n.t('the shapefile cannot be read ({0})', (error as Error).message) };
      return;
    }
    const shpName = basename(path);
    let feature = 0;
    for (;;) {
      throwIfAborted(signal);
      let shape;
      let record: IteratorResult<DbfRecord>;
      try {
        [shape, record] = await Promise.all([shapes.read(), records.next()]);
      } catch (error) {
        yield {
          row: feature + 1,
          line: feature + 1,
          column: 1,
          problem: l10n.t('feature {0} cannot be read ({1}): the features after it are not read', feature + 1, (error as Error).message),
        };
        return;
      }
      if (shape.done) {
        const { declared, actual } = await shpLengths(files.shp);
        if (actual < declared)
          yield {
            line: feature + 1,
            column: 1,
            problem: l10n.t(
              '{0} is cut short ({1} of the {2} bytes its header gives): the features after feature {3} are missing',
              shpName,
              actual,
              declared,
              feature,
            ),
          };
        else if (!record.done)
          yield {
            line: feature + 1,
            column: 1,
            problem: l10n.t(
              "{0} has more records than {1} has shapes ({2}): the layer's files do not match (one is cut short or from another layer)",
              files.names.dbf,
              shpName,
              feature,
            ),
          };
        return;
      }
      feature++;
      if (record.done) {
        yield {
          row: feature,
          line: feature,
          column: 1,
          problem: l10n.t(
            "feature {0} has no attributes in {1}: the layer's files do not match (one is cut short or from another layer); the features after it are not read",
            feature,
            files.names.dbf,
          ),
        };
        return;
      }
      if (record.value.deleted) continue;
      const at: CellPosition = { line: feature, column: 1 };
      const cells: Record<string, CellPosition> = {};
      layout.fields.forEach((field, index) => setCell(cells, field.name, { line: feature, column: index + 1 }));
      const geometry = shape.value as { type: string; coordinates?: unknown } | null;
      yield {
        row: feature,
        line: feature,
        values: record.value.values,
        cells,
        ...(geometry ? { geometry: { type: geometry.type, coordinates: geometry.coordinates, position: at } } : {}),
      };
    }
  } finally {
    await records.return(undefined);
    await shapes?.cancel().catch(() => undefined);
    // Closed when the rows end, not a moment later: a file still open cannot be removed or replaced on Windows.
    if (shpStream && !shpStream.closed) await new Promise<void>((resolve) => shpStream.once('close', () => resolve()).destroy());
  }
}
