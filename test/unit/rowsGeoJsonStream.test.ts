// A GeoJSON FeatureCollection of any layout read as a stream (issue 32, defect 2): one line of
// 17 MB or the same pretty-printed, with memory bounded by about a feature and a read chunk, every
// value still placed at its line and column, the root's type and crs found after the features,
// and what was refused before still refused with the same words.
import * as assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  MAX_ROW_CHARS,
  TableReadError,
  isRowReadProblem,
  openTable,
  type RowReadProblem,
  type SourceRow,
  type SourceTable,
  type TableFormat,
} from '../../src/core/rows';
import { openGeoJson } from '../../src/core/rows/read/geojsonTable';
import { positionOf, useTableFolder } from './helpers/tableFiles';
import { garbageCollector, heldBytes } from './helpers/heldMemory';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'exports', 'geo');
const UTF8: TableFormat = { format: 'geojson', encoding: 'utf-8' };

async function readAllRows(table: SourceTable): Promise<Array<SourceRow | RowReadProblem>> {
  const items: Array<SourceRow | RowReadProblem> = [];
  for await (const item of table.rows()) items.push(item);
  return items;
}

// Enough that a reader holding the file (about 7 MB on one line) shows against the limits below.
const FEATURES = 40_000;

/** A tree of a city's inventory; every 20,000th has a `note` more, so a column first seen half way through the file. */
function tree(i: number): Record<string, unknown> {
  return {
    type: 'Feature',
    id: i,
    geometry: { type: 'Point', coordinates: [4.8 + (i % 1000) / 10000, 45.7 + (i % 997) / 10000] },
    properties: { nom: `Érable n°${i}`, hauteur: (i % 30) + 0.5, remarquable: i % 7 === 0, ...(i % 20_000 === 0 ? { note: `vu ${i}` } : {}) },
  };
}

/**
 * Writes a FeatureCollection a thousand features at a time (the test holds no copy of it either),
 * `type` and `crs` after the features, as GeoServer and hand-merged files have them.
 */
function writeLayer(path: string, layout: 'one line' | 'pretty'): number {
  const pretty = layout === 'pretty';
  const fd = openSync(path, 'w');
  writeSync(fd, pretty ? '{\r\n  "features": [\r\n' : '{"features":[');
  for (let start = 1; start <= FEATURES; start += 1000) {
    const chunk: string[] = [];
    for (let i = start; i < start + 1000; i++)
      chunk.push(pretty ? JSON.stringify(tree(i), null, 2).replace(/\n/g, '\r\n    ').replace(/^/, '    ') : JSON.stringify(tree(i)));
    writeSync(fd, (start > 1 ? (pretty ? ',\r\n' : ',') : '') + chunk.join(pretty ? ',\r\n' : ','));
  }
  const crs = '"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}}';
  writeSync(fd, pretty ? `\r\n  ],\r\n  ${crs},\r\n  "type": "FeatureCollection"\r\n}\r\n` : `],${crs},"type":"FeatureCollection"}`);
  closeSync(fd);
  return statSync(path).size;
}

describe('rows read: GeoJSON as a stream', () => {
  const folder = useTableFolder('spot-rows-geojson-stream-');

  for (const layout of ['one line', 'pretty'] as const) {
    it(`reads 40,000 features written on ${layout === 'one line' ? 'one line' : 'many lines (pretty-printed, CRLF)'} with memory bounded by a feature and a read chunk, the root's type and crs after them`, async function () {
      this.timeout(60_000);
      const path = join(folder.dir(), 'arbres.geojson');
      const size = writeLayer(path, layout);
      assert.ok(size > 6 * 1024 * 1024, `${size} bytes`);

      const gc = garbageCollector();
      const before = heldBytes(gc);
      // Sampled while the file is opened too: its first pass (columns, type, crs) reads it whole.
      let most = 0;
      const sampler = setInterval(() => (most = Math.max(most, heldBytes(gc) - before)), 100);
      let table: SourceTable;
      try {
        table = await openGeoJson(path, UTF8, []);
      } finally {
        clearInterval(sampler);
      }
      const afterOpen = heldBytes(gc) - before;
      assert.deepEqual(table.columns, ['nom', 'hauteur', 'remarquable', 'note']);
      assert.equal(table.crs, 'EPSG:4326');

      let count = 0;
      let last: SourceRow | undefined;
      for await (const item of table.rows()) {
        assert.ok(!isRowReadProblem(item), JSON.stringify(item));
        count++;
        last = item;
        if (count % 5_000 === 0) most = Math.max(most, heldBytes(gc) - before);
      }
      // The file is 6 MB or more; held whole, its text alone would be that.
      assert.ok(afterOpen < 2 * 1024 * 1024, `${(afterOpen / 1048576).toFixed(1)} MB held after the file was opened (${(size / 1048576).toFixed(1)} MB)`);
      assert.ok(most < 8 * 1024 * 1024, `${(most / 1048576).toFixed(1)} MB held while ${(size / 1048576).toFixed(1)} MB were read`);
      assert.equal(count, FEATURES);
      assert.deepEqual(last?.values, { nom: 'Érable n°40000', hauteur: 10.5, remarquable: false, note: 'vu 40000' });
      assert.deepEqual(last?.geometry?.coordinates, [4.8, 45.7 + (FEATURES % 997) / 10000]);
      assert.deepEqual(last?.id?.value, FEATURES);

      // The last feature's positions, found in the file's text the naive way (only here is it read whole).
      const text = readFileSync(path, 'utf8');
      const lastStart = text.lastIndexOf('{', text.lastIndexOf('"Feature"'));
      const atIndex = (index: number) => {
        const before = text.slice(0, index).split(/\r\n|\r|\n/);
        return { line: before.length, column: before[before.length - 1].length + 1 };
      };
      const at = (needle: string) => atIndex(text.indexOf(needle, lastStart));
      assert.equal(last?.line, atIndex(lastStart).line);
      assert.deepEqual(last?.cells.nom, at('"Érable n°40000"'));
      assert.deepEqual(last?.cells.note, at('"vu 40000"'));
      assert.deepEqual(last?.geometry?.position, atIndex(text.indexOf('[', text.indexOf('"coordinates"', lastStart))));
      if (layout === 'one line') assert.equal(last?.cells.note.line, 1);
    });
  }

  it('reads a minified web API answer (one line of 200 KB, escapes, an emoji, crs after the features) with every value at its column', async () => {
    const path = join(FIXTURES, 'arbres-wfs.geojson');
    const text = readFileSync(path, 'utf8');
    assert.ok(!/[\r\n]/.test(text) && Buffer.byteLength(text) > 64 * 1024, 'one line over 64 KiB');
    // Through openTable: by its name, and with its format given.
    assert.equal((await openTable(path, { format: 'geojson' })).columns.length, 7);
    const table = await openTable(path);
    assert.deepEqual(table.format, UTF8);
    assert.deepEqual(table.columns, ['gid', 'essence', 'hauteur', 'adresse', 'date_plantation', 'fiche', 'remarque']);
    assert.equal(table.crs, 'EPSG:4326');
    const items = await readAllRows(table);
    assert.equal(items.length, 640);
    assert.ok(items.every((item) => !isRowReadProblem(item)));
    const rows = items as SourceRow[];

    const remarkable = rows[332];
    assert.deepEqual(remarkable.values.remarque, 'arbre « remarquable » \u{1F333} classé');
    assert.equal(remarkable.values.fiche, 'https://data.example.org/arbres/333');
    // Columns count UTF-16 code units: the emoji is two, "é" one; the escapes as written.
    assert.deepEqual(remarkable.cells.remarque, positionOf(text, '"arbre \\u00ab'));
    assert.deepEqual(remarkable.cells.gid, positionOf(text, '333,"essence"'));
    assert.deepEqual(remarkable.id, { value: 'arbres.333', position: positionOf(text, '"arbres.333"') });
    const after = rows[333];
    assert.deepEqual(after.cells.gid, positionOf(text, '334,"essence"'));
    assert.deepEqual(after.geometry?.position, positionOf(text, '[', text.slice(0, text.indexOf('"arbres.334"')).split('[').length));
    const lastRow = rows[639];
    assert.deepEqual([lastRow.row, lastRow.line, lastRow.cells.fiche], [640, 1, positionOf(text, '"https:\\/\\/data.example.org\\/arbres\\/640"')]);
  });

  it(`reports a feature longer than ${MAX_ROW_CHARS / 1048576} MiB at its line, without holding it, and reads the features after it`, async () => {
    const long = `{"type": "Feature", "properties": {"name": "long", "geom_wkt": "${'POLYGON '.repeat(MAX_ROW_CHARS / 8 + 10)}"}, "geometry": null}`;
    const text = [
      '{"type": "FeatureCollection", "features": [',
      '{"type": "Feature", "properties": {"name": "before"}, "geometry": null},',
      `  ${long},`,
      '{"type": "Feature", "properties": {"name": "after", "height": 3}, "geometry": null}',
      ']}',
    ].join('\n');
    const path = folder.write('long.geojson', text);
    const table = await openGeoJson(path, UTF8, []);
    // Its properties are not read, so not columns either.
    assert.deepEqual(table.columns, ['name', 'height']);
    const items = await readAllRows(table);
    assert.equal(items.length, 3);
    assert.ok(isRowReadProblem(items[1]), 'the long feature is a problem, not a row');
    assert.deepEqual(items[1], { problem: 'feature 2 is longer than 1 MiB: it is not read', line: 3, column: 3, row: 2 });
    assert.ok(!isRowReadProblem(items[2]));
    assert.deepEqual([items[2].row, items[2].line, items[2].values], [3, 4, { name: 'after', height: 3 }]);
  });

  it('refuses what is not a FeatureCollection with the words and at the place it always did, wherever in the file it is', async () => {
    const refusal = async (text: string | Uint8Array): Promise<TableReadError> => {
      const path = folder.write('refused.geojson', text);
      try {
        await openGeoJson(path, UTF8, []);
      } catch (error) {
        assert.ok(error instanceof TableReadError, String(error));
        return error;
      }
      throw new Error('not refused');
    };
    const features = Array.from({ length: 3000 }, (_, i) => `{"type":"Feature","properties":{"n":${i}},"geometry":null}`);
    const oneLine = (rest: string) => `{"type":"FeatureCollection","features":[${features.join(',')}]${rest}}`;

    let text = oneLine(',"features":[]');
    let error = await refusal(text);
    assert.equal(error.reason, 'it names the member "features" twice');
    assert.deepEqual(error.position, positionOf(text, '[]'));

    // A comma left out between two features far along the line.
    text = oneLine('').replace('null},{"type":"Feature","properties":{"n":2501}', 'null} {"type":"Feature","properties":{"n":2501}');
    error = await refusal(text);
    assert.equal(error.reason, 'it is not valid JSON: comma expected');
    assert.deepEqual(error.position, { line: 1, column: text.indexOf('{"type":"Feature","properties":{"n":2501}') + 1 });

    // Inside a feature, at the character.
    text = oneLine('').replace('{"n":2999}', '{"n":2999,}');
    error = await refusal(text);
    assert.equal(error.reason, 'it is not valid JSON: property name expected');
    assert.deepEqual(error.position, { line: 1, column: text.indexOf(',}') + 2 });

    text = oneLine(',"crs":{"type":"link","properties":{"href":"http://example.org/crs"}}');
    error = await refusal(text);
    assert.match(error.reason, /^its crs member is not one this reader knows: /);
    assert.deepEqual(error.position, positionOf(text, '{"type":"link"'));

    text = `{"features":[${features.slice(0, 2).join(',')}],"type":"Topology"}`;
    error = await refusal(text);
    assert.equal(error.reason, 'it is not a GeoJSON FeatureCollection: its type is "Topology"');
    assert.deepEqual(error.position, positionOf(text, '"Topology"'));

    text = '{"type":"FeatureCollection","features":{"type":"Feature"}}';
    error = await refusal(text);
    assert.equal(error.reason, 'its features are not an array: they are an object');
    assert.deepEqual(error.position, positionOf(text, '{"type":"Feature"'));

    error = await refusal('{"type":"FeatureCollection"}');
    assert.deepEqual([error.reason, error.position], ['its features are not an array: it has no features member', { line: 1, column: 1 }]);
    error = await refusal('  [1, 2]');
    assert.deepEqual([error.reason, error.position], ['it is not a GeoJSON FeatureCollection: it is an array', { line: 1, column: 3 }]);
    error = await refusal('\n "layer"');
    assert.deepEqual([error.reason, error.position], ['it is not a GeoJSON FeatureCollection: it is "layer"', { line: 2, column: 2 }]);
    error = await refusal(' \r\n ');
    assert.equal(error.reason, 'the file is empty');

    // Cut off (an interrupted download): where the text ends.
    text = oneLine('').slice(0, -5000);
    error = await refusal(text);
    assert.match(error.reason, /^it is not valid JSON: /);
    assert.deepEqual(error.position, { line: 1, column: text.length + 1 });

    // Bytes that are not UTF-8 on the third line, after a line of 170 KB.
    const latin = `${oneLine('').slice(0, -2)},\n{"type":"Feature","properties":{"n":"ok"},"geometry":null},\n{"type":"Feature","properties":{"name":"Größe"},"geometry":null}]}`;
    error = await refusal(Buffer.from(latin, 'latin1'));
    assert.equal(error.reason, 'it is not valid UTF-8 from here on: save it as UTF-8 (GeoJSON is UTF-8) or give its encoding');
    assert.deepEqual(error.position, positionOf(latin, 'ö'));
  });
});
