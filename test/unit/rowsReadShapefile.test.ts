import * as assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { ZipFile } from 'yazl';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTable } from '../../src/core/rows/read/openTable';
import { crsOfPrj, tableCrs } from '../../src/core/rows/values/prjCrs';
import { guessMapping } from '../../src/core/rows/mapping/guessMapping';
import { isRowReadProblem, type SourceRow, type SourceTable } from '../../src/core/rows/read/types';
import { windows1252 } from './helpers/rowsProject';
import { writeShapefile } from './helpers/shapefileWriter';

async function rowsOf(table: SourceTable): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for await (const row of table.rows()) {
    assert.ok(!isRowReadProblem(row), isRowReadProblem(row) ? row.problem : '');
    rows.push(row);
  }
  return rows;
}

// What ArcGIS and QGIS write into a .prj (ESRI's WKT: no AUTHORITY), and OGC WKT with one.
const ESRI_GK_EAST =
  'PROJCS["MGI_Austria_GK_East",GEOGCS["GCS_MGI",DATUM["D_MGI",SPHEROID["Bessel_1841",6377397.155,299.1528128]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",-5000000.0],PARAMETER["Central_Meridian",16.33333333333333],PARAMETER["Scale_Factor",1.0],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';
const ESRI_WGS84 =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';
const OGC_LAMBERT93 =
  'PROJCS["RGF93 v1 / Lambert-93",GEOGCS["RGF93 v1",DATUM["Reseau_Geodesique_Francais_1993_v1",SPHEROID["GRS 1980",6378137,298.257222101,AUTHORITY["EPSG","7019"]],AUTHORITY["EPSG","6171"]],AUTHORITY["EPSG","4171"]],PROJECTION["Lambert_Conformal_Conic_2SP"],UNIT["metre",1,AUTHORITY["EPSG","9001"]],AUTHORITY["EPSG","2154"]]';

describe('rows read: a shapefile layer as a table', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'spot-shp-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads each feature as a row: its attributes in the .cpg encoding, its point as its geometry, the .prj as the crs', async () => {
    const base = join(dir, 'baeume');
    writeShapefile(base, {
      shapes: [{ point: [16.3738, 48.2081] }, { point: [16.3723, 48.2076] }],
      fields: ['BAUMART', 'HOEHE'],
      records: [
        ['Lärche', '14.5'],
        ['Eiche', '7'],
      ],
      encode: (text) => Buffer.from(text, 'utf8'),
      cpg: 'UTF-8',
      prj: ESRI_WGS84,
    });
    const table = await openTable(`${base}.shp`);
    assert.equal(table.format.format, 'shapefile');
    assert.equal(table.format.encoding, 'utf-8');
    assert.equal(tableCrs(table), 'EPSG:4326');
    assert.equal(table.hasGeometry, true);
    assert.deepEqual(table.columns, ['BAUMART', 'HOEHE']);
    const rows = await rowsOf(table);
    assert.deepEqual(
      rows.map((row) => [row.row, row.values, row.geometry?.type, row.geometry?.coordinates]),
      [
        [1, { BAUMART: 'Lärche', HOEHE: '14.5' }, 'Point', [16.3738, 48.2081]],
        [2, { BAUMART: 'Eiche', HOEHE: '7' }, 'Point', [16.3723, 48.2076]],
      ],
    );
    assert.deepEqual(rows[1].cells.HOEHE, { line: 2, column: 2 });
  });

  it("reads a MultiPoint layer (what QGIS writes for points): each feature its MultiPoint, for the mapping's geometry rule", async () => {
    const base = join(dir, 'multi');
    writeShapefile(base, {
      shapes: [
        { multipoint: [[16.3723, 48.2076]] },
        {
          multipoint: [
            [1, 2],
            [3, 4],
          ],
        },
      ],
      fields: ['A'],
      records: [['x'], ['y']],
      encode: (text) => Buffer.from(text, 'latin1'),
    });
    const rows = await rowsOf(await openTable(`${base}.shp`));
    assert.deepEqual(
      rows.map((row) => [row.geometry?.type, row.geometry?.coordinates]),
      [
        ['MultiPoint', [[16.3723, 48.2076]]],
        [
          'MultiPoint',
          [
            [1, 2],
            [3, 4],
          ],
        ],
      ],
    );
  });

  it('without a .cpg, takes the encoding the DBF names (windows-1252), else latin1', async () => {
    const named = join(dir, 'named');
    writeShapefile(named, { shapes: [{ point: [1, 2] }], fields: ['ART'], records: [['Lärche']], encode: windows1252, languageDriver: 0x57 });
    const table = await openTable(`${named}.shp`);
    assert.equal(table.format.encoding, 'windows-1252');
    assert.deepEqual((await rowsOf(table))[0].values, { ART: 'Lärche' });
    const silent = join(dir, 'silent');
    writeShapefile(silent, { shapes: [{ point: [1, 2] }], fields: ['ART'], records: [['Lärche']], encode: (text) => Buffer.from(text, 'latin1') });
    const latin = await openTable(`${silent}.shp`);
    assert.equal(latin.format.encoding, 'latin1');
    assert.deepEqual((await rowsOf(latin))[0].values, { ART: 'Lärche' });
    // windows-1252's own letters (0x80–0x9F), in a value and in a column's name: € and „“ as written.
    const letters = join(dir, 'letters');
    const cp1252 = (text: string) => Buffer.from(text.replace(/€/g, '\x80').replace(/„/g, '\x84').replace(/“/g, '\x93'), 'latin1');
    writeShapefile(letters, { shapes: [{ point: [1, 2] }], fields: ['PREIS€'], records: [['5 € „Sonder“']], encode: cp1252, languageDriver: 0x57 });
    const priced = await openTable(`${letters}.shp`);
    assert.deepEqual(priced.columns, ['PREIS€']);
    assert.deepEqual((await rowsOf(priced))[0].values, { 'PREIS€': '5 € „Sonder“' });
  });

  it('reads a Polish layer in windows-1250, by its .cpg ("1250", as ArcGIS writes it) or by the DBF\'s language driver (0xC8)', async () => {
    // CP1250.TXT: Ł 0xA3, ą 0xB9, ż 0xBF, ł 0xB3.
    const cp1250 = (text: string) => Buffer.from(text.replace(/Ł/g, '\xa3').replace(/ą/g, '\xb9').replace(/ż/g, '\xbf').replace(/ł/g, '\xb3'), 'latin1');
    for (const [name, layer] of [
      ['pl-cpg', { cpg: '1250' }],
      ['pl-ldid', { languageDriver: 0xc8 }],
    ] as const) {
      const base = join(dir, name);
      writeShapefile(base, { shapes: [{ point: [1, 2] }], fields: ['NAZWA'], records: [['Łąka przy żłobku']], encode: cp1250, ...layer });
      const table = await openTable(`${base}.shp`);
      assert.equal(table.format.encoding, 'windows-1250', `${name}: ${table.detected.join('; ')}`);
      assert.deepEqual((await rowsOf(table))[0].values, { NAZWA: 'Łąka przy żłobku' });
    }
  });

  // DBF cuts field names to 10 characters: observation_date and observation_time are both
  // OBSERVATIO, and the second's value went under the one name, the first's lost without a word.
  // ArcGIS writes UTF-8's code page number, 65001, into the .cpg.
  it('names a field whose name another has "OBSERVATIO (2)", as a repeated CSV header, and says so; a .cpg of 65001 is UTF-8', async () => {
    const base = join(dir, 'trees');
    writeShapefile(base, {
      shapes: [{ point: [16.3738, 48.2081] }],
      fields: ['OBSERVATIO', 'OBSERVATIO', 'GROESSE'],
      records: [['first', 'second', 'Größe']],
      encode: (text) => Buffer.from(text, 'utf8'),
      cpg: '65001',
    });
    const table = await openTable(`${base}.shp`);
    assert.deepEqual(table.columns, ['OBSERVATIO', 'OBSERVATIO (2)', 'GROESSE']);
    assert.ok(table.detected.includes('column 2 repeats the name "OBSERVATIO": called "OBSERVATIO (2)"'), table.detected.join('\n'));
    assert.equal(table.format.encoding, 'utf-8');
    const [row] = await rowsOf(table);
    assert.deepEqual(row.values, { OBSERVATIO: 'first', 'OBSERVATIO (2)': 'second', GROESSE: 'Größe' });
  });

  it('names the coordinate system of a .prj by its EPSG code, from its AUTHORITY or its ESRI name; says when it cannot', async () => {
    // GDAL's Pseudo-Mercator without an AUTHORITY of its own: its GEOGCS's 4326 is not the layer's system.
    const gdalMercator =
      'PROJCS["WGS 84 / Pseudo-Mercator",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433],AUTHORITY["EPSG","4326"]],PROJECTION["Mercator_1SP"],PARAMETER["central_meridian",0],PARAMETER["scale_factor",1],PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1]]';
    assert.equal(crsOfPrj(gdalMercator), 'EPSG:3857');
    assert.equal(crsOfPrj(gdalMercator.replace('WGS 84 / Pseudo-Mercator', 'My_Own_Mercator')), undefined, 'never the GEOGCS 4326 of a projected system');
    assert.equal(
      crsOfPrj(
        'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],UNIT["Meter",1.0]]',
      ),
      'EPSG:3857',
    );
    assert.equal(crsOfPrj(ESRI_GK_EAST), 'EPSG:31256');
    assert.equal(crsOfPrj(OGC_LAMBERT93), 'EPSG:2154');
    assert.equal(crsOfPrj(ESRI_WGS84), 'EPSG:4326');
    assert.equal(crsOfPrj('PROJCS["Some_Local_Grid",GEOGCS["GCS_Local"]]'), undefined);
    const base = join(dir, 'local');
    writeShapefile(base, {
      shapes: [{ point: [1, 2] }],
      fields: ['A'],
      records: [['x']],
      encode: (text) => Buffer.from(text, 'latin1'),
      prj: 'PROJCS["Some_Local_Grid"]',
    });
    const table = await openTable(`${base}.shp`);
    assert.equal(table.prj?.name, 'local.prj');
    assert.equal(tableCrs(table), undefined);
    // A proposed mapping says so.
    const { notes } = await guessMapping(table, await rowsOf(table));
    assert.ok(
      notes.some((note) => /crs: local\.prj names a coordinate system this project does not know/.test(note)),
      notes.join('; '),
    );
  });

  it('reads each attribute by its dBASE type: a date as the day written in any time zone, a blank date empty, numbers and logicals as values', async () => {
    const zone = process.env.TZ;
    // East of UTC a date read as local midnight and shown in UTC is a day early: the test runs there.
    process.env.TZ = 'Europe/Vienna';
    try {
      const base = join(dir, 'typed');
      writeShapefile(base, {
        shapes: [{ point: [16.37, 48.2] }, { point: [16.38, 48.21] }, { point: [16.39, 48.22] }],
        fields: [
          { name: 'SEEN', type: 'D', width: 8 },
          { name: 'HEIGHT', type: 'N', width: 10 },
          { name: 'ALIVE', type: 'L', width: 1 },
          { name: 'NAME', type: 'C', width: 12 },
        ],
        records: [
          ['20240315', '14.5', 'T', ' Oak  '],
          ['        ', '', '?', ''],
          ['00000000', '7', 'n', 'Larch'],
        ],
        encode: (text) => Buffer.from(text, 'latin1'),
      });
      const rows = await rowsOf(await openTable(`${base}.shp`));
      assert.deepEqual(
        rows.map((row) => row.values),
        [
          { SEEN: '2024-03-15', HEIGHT: 14.5, ALIVE: true, NAME: 'Oak' },
          { SEEN: '', HEIGHT: '', ALIVE: '', NAME: '' },
          { SEEN: '', HEIGHT: 7, ALIVE: false, NAME: 'Larch' },
        ],
      );
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('leaves out features whose attributes are marked deleted, as GIS tools do, keeping the features their numbers', async () => {
    const base = join(dir, 'deleted');
    writeShapefile(base, {
      shapes: [{ point: [1, 2] }, { point: [3, 4] }, { point: [5, 6] }],
      fields: ['NAME'],
      records: [['a'], ['gone'], ['c']],
      deleted: [1],
      encode: (text) => Buffer.from(text, 'latin1'),
    });
    const rows = await rowsOf(await openTable(`${base}.shp`));
    assert.deepEqual(
      rows.map((row) => [row.row, row.values.NAME, row.geometry?.coordinates]),
      [
        [1, 'a', [1, 2]],
        [3, 'c', [5, 6]],
      ],
    );
  });

  it("says when the layer's files do not match: fewer or more attribute records than shapes, or a .shp cut short", async () => {
    const layer = (name: string, shapes: number, records: number) => {
      const base = join(dir, name);
      writeShapefile(base, {
        shapes: Array.from({ length: shapes }, (_, index) => ({ point: [index, index] as [number, number] })),
        fields: ['NAME'],
        records: Array.from({ length: records }, (_, index) => [`n${index + 1}`]),
        encode: (text) => Buffer.from(text, 'latin1'),
      });
      return base;
    };
    const read = async (path: string) => {
      const out: string[] = [];
      for await (const row of (await openTable(path)).rows())
        out.push(isRowReadProblem(row) ? `problem at ${row.line}: ${row.problem}` : `row ${row.row}: ${row.values.NAME}`);
      return out;
    };
    const fewer = layer('fewer', 3, 2);
    assert.deepEqual(await read(`${fewer}.shp`), [
      'row 1: n1',
      'row 2: n2',
      "problem at 3: feature 3 has no attributes in fewer.dbf: the layer's files do not match (one is cut short or from another layer); the features after it are not read",
    ]);
    const more = layer('more', 2, 3);
    assert.deepEqual(await read(`${more}.shp`), [
      'row 1: n1',
      'row 2: n2',
      "problem at 3: more.dbf has more records than more.shp has shapes (2): the layer's files do not match (one is cut short or from another layer)",
    ]);
    // Cut where a record ends: the library reads what is there as complete; the header knows better.
    const cut = layer('cut', 3, 3);
    const shp = readFileSync(`${cut}.shp`);
    writeFileSync(`${cut}.shp`, shp.subarray(0, shp.length - 28));
    assert.deepEqual(await read(`${cut}.shp`), [
      'row 1: n1',
      'row 2: n2',
      `problem at 3: cut.shp is cut short (${shp.length - 28} of the ${shp.length} bytes its header gives): the features after feature 2 are missing`,
    ]);
  });

  it("closes the layer's files when it cannot be read", async function () {
    if (process.platform !== 'linux') this.skip();
    const base = join(dir, 'odd');
    writeShapefile(base, { shapes: [{ point: [1, 2] }], fields: ['A'], records: [['x']], encode: (text) => Buffer.from(text, 'latin1') });
    // A shape type the library does not read (31, MultiPatch).
    const shp = readFileSync(`${base}.shp`);
    shp.writeInt32LE(31, 32);
    writeFileSync(`${base}.shp`, shp);
    const open = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(base);
        } catch {
          return false;
        }
      }).length;
    const table = await openTable(`${base}.shp`);
    for (let round = 0; round < 3; round++) {
      const problems: string[] = [];
      for await (const row of table.rows()) if (isRowReadProblem(row)) problems.push(row.problem);
      assert.match(problems.join(), /the shapefile cannot be read/);
    }
    assert.equal(open(), 0, 'files of the layer left open');
  });

  it('refuses a layer without its .dbf, saying which file is missing', async () => {
    const base = join(dir, 'alone');
    writeShapefile(base, { shapes: [{ point: [1, 2] }], fields: ['A'], records: [['x']], encode: (text) => Buffer.from(text, 'latin1') });
    rmSync(`${base}.dbf`);
    await assert.rejects(openTable(`${base}.shp`), /alone\.shp: its attributes \(alone\.dbf\) are not beside it/);
  });

  /** The layer's files in a ZIP archive, under `folder/` when given, with a resource fork beside them as Finder zips it. */
  async function zipLayer(zipPath: string, layers: Array<{ base: string; folder?: string }>): Promise<void> {
    const zip = new ZipFile();
    for (const { base, folder } of layers)
      for (const extension of ['shp', 'dbf', 'prj', 'cpg']) {
        let bytes: Buffer;
        try {
          bytes = readFileSync(`${base}.${extension}`);
        } catch {
          continue;
        }
        const name = `${folder ? `${folder}/` : ''}${base.split('/').pop()}.${extension}`;
        zip.addBuffer(bytes, name);
        if (extension === 'shp') zip.addBuffer(Buffer.from('junk'), `__MACOSX/._${name}`);
      }
    zip.end();
    await new Promise<void>((resolve, reject) =>
      zip.outputStream
        .pipe(createWriteStream(zipPath))
        .on('close', () => resolve())
        .on('error', reject),
    );
  }

  it('reads a layer handed over as a ZIP archive as the same rows, from the archive in place', async () => {
    const base = join(dir, 'baeume');
    writeShapefile(base, {
      shapes: [{ point: [16.3738, 48.2081] }],
      fields: ['BAUMART'],
      records: [['Lärche']],
      encode: (text) => Buffer.from(text, 'utf8'),
      cpg: 'UTF-8',
      prj: ESRI_GK_EAST,
    });
    await zipLayer(join(dir, 'layer.zip'), [{ base, folder: 'export' }]);
    const table = await openTable(join(dir, 'layer.zip'));
    assert.equal(table.format.format, 'shapefile');
    assert.equal(tableCrs(table), 'EPSG:31256');
    assert.deepEqual(
      (await rowsOf(table)).map((row) => [row.values, row.geometry?.coordinates]),
      [[{ BAUMART: 'Lärche' }, [16.3738, 48.2081]]],
    );
  });

  it('an archive of several layers needs source.entry, and says which there are; one without a layer is read for its table, or says it has none', async () => {
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    for (const base of [a, b])
      writeShapefile(base, {
        shapes: [{ point: [1, 2] }],
        fields: ['N'],
        records: [[base.endsWith('a') ? 'from a' : 'from b']],
        encode: (text) => Buffer.from(text, 'latin1'),
      });
    await zipLayer(join(dir, 'two.zip'), [{ base: a }, { base: b }]);
    await assert.rejects(openTable(join(dir, 'two.zip')), /the archive holds 2 layers \(a\.shp, b\.shp\): name one as source\.entry/);
    const chosen = await openTable(join(dir, 'two.zip'), { entry: 'b.shp' });
    assert.deepEqual((await rowsOf(chosen))[0].values, { N: 'from b' });
    assert.equal(chosen.format.entry, 'b.shp', 'the layer as used, for the mapping proposed');
    // An archive without a layer is read for the table it holds (a form tool's export), or refused for holding none.
    const other = new ZipFile();
    other.addBuffer(Buffer.from('id,lat\n'), 'table.csv');
    other.end();
    await new Promise<void>((resolve) => other.outputStream.pipe(createWriteStream(join(dir, 'other.zip'))).on('close', () => resolve()));
    assert.deepEqual((await openTable(join(dir, 'other.zip'))).columns, ['id', 'lat']);
    const none = new ZipFile();
    none.addBuffer(Buffer.from('notes'), 'readme.txt');
    none.end();
    await new Promise<void>((resolve) => none.outputStream.pipe(createWriteStream(join(dir, 'none.zip'))).on('close', () => resolve()));
    await assert.rejects(
      openTable(join(dir, 'none.zip')),
      /the archive holds no table \(a \.csv, \.tsv, \.tab, \.geojson, \.json, \.ndjson, \.jsonl, \.geojsonl, \.geojsons or \.shp file\)/,
    );
  });
});
