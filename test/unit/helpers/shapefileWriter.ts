// Shapefiles written by the tests byte by byte (ESRI's Shapefile Technical Description, 1998, and
// dBASE III for the attributes), so each test says exactly which features, attributes, encoding
// and coordinate system its layer has.
import { writeFileSync } from 'node:fs';

/** `none`: a null shape (type 0), as tools leave a feature whose geometry was deleted. */
export type TestShape = { point: [number, number] } | { multipoint: Array<[number, number]> } | { none: true };

/** An attribute column: a name (a character field), or a name with its dBASE type (C, N, F, L, D) and width. */
export type TestField = string | { name: string; type: 'C' | 'N' | 'F' | 'L' | 'D'; width: number };

export interface TestLayer {
  shapes: TestShape[];
  /** Attribute columns, each row's values in order, written as the field's text (a date as YYYYMMDD). */
  fields: TestField[];
  records: string[][];
  /** Records (0-based) marked deleted ("*"), as a tool leaves them until the layer is packed. */
  deleted?: number[];
  /** The bytes the attribute values are written in. */
  encode: (text: string) => Buffer;
  /** The DBF's language driver byte (offset 29): 0 says nothing. */
  languageDriver?: number;
  prj?: string;
  cpg?: string;
}

export function writeShapefile(base: string, layer: TestLayer): void {
  const contents = layer.shapes.map(shapeContent);
  const length = 100 + contents.reduce((sum, content) => sum + 8 + content.length, 0);
  const header = Buffer.alloc(100);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(length / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(layer.shapes.some((shape) => 'multipoint' in shape) ? 8 : 1, 32);
  const records = contents.map((content, index) => {
    const recordHeader = Buffer.alloc(8);
    recordHeader.writeInt32BE(index + 1, 0);
    recordHeader.writeInt32BE(content.length / 2, 4);
    return Buffer.concat([recordHeader, content]);
  });
  writeFileSync(`${base}.shp`, Buffer.concat([header, ...records]));
  writeFileSync(`${base}.dbf`, dbf(layer));
  if (layer.prj !== undefined) writeFileSync(`${base}.prj`, layer.prj);
  if (layer.cpg !== undefined) writeFileSync(`${base}.cpg`, layer.cpg);
}

function shapeContent(shape: TestShape): Buffer {
  if ('none' in shape) return Buffer.alloc(4);
  if ('point' in shape) {
    const content = Buffer.alloc(20);
    content.writeInt32LE(1, 0);
    content.writeDoubleLE(shape.point[0], 4);
    content.writeDoubleLE(shape.point[1], 12);
    return content;
  }
  const points = shape.multipoint;
  const content = Buffer.alloc(40 + 16 * points.length);
  content.writeInt32LE(8, 0);
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].forEach((value, index) => content.writeDoubleLE(value, 4 + 8 * index));
  content.writeInt32LE(points.length, 36);
  points.forEach(([x, y], index) => {
    content.writeDoubleLE(x, 40 + 16 * index);
    content.writeDoubleLE(y, 48 + 16 * index);
  });
  return content;
}

function dbf(layer: TestLayer): Buffer {
  const fields = layer.fields.map((field) => (typeof field === 'string' ? { name: field, type: 'C', width: 40 } : field));
  const header = Buffer.alloc(32);
  header.writeUInt8(0x03, 0);
  header.writeUInt32LE(layer.records.length, 4);
  header.writeUInt16LE(32 + 32 * fields.length + 1, 8);
  header.writeUInt16LE(1 + fields.reduce((sum, field) => sum + field.width, 0), 10);
  header.writeUInt8(layer.languageDriver ?? 0, 29);
  const descriptors = fields.map((field) => {
    const descriptor = Buffer.alloc(32);
    layer.encode(field.name).copy(descriptor, 0, 0, 10);
    descriptor.write(field.type, 11, 'latin1');
    descriptor.writeUInt8(field.width, 16);
    return descriptor;
  });
  const rows = layer.records.map((record, index) =>
    Buffer.concat([
      Buffer.from(layer.deleted?.includes(index) ? '*' : ' ', 'latin1'),
      ...record.map((value, column) => {
        const cell = Buffer.alloc(fields[column].width, 0x20);
        layer.encode(value).copy(cell);
        return cell;
      }),
    ]),
  );
  return Buffer.concat([header, ...descriptors, Buffer.from([0x0d]), ...rows, Buffer.from([0x1a])]);
}
