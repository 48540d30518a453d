// GET /__sandbox/tiles/{z}/{x}/{y}.png: generated map tiles, so the map's tile loading (the
// setting spotImport.map.tiles, the page's Content Security Policy, Leaflet's tile layer) is
// exercised for real on loopback, with no traffic to a tile server. Each tile is a small PNG: a
// pale fill with a darker border (the grid shows where tiles meet), its shade varying with x, y
// and z so neighbouring tiles differ. Made with node:zlib and a CRC table; nothing to install.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { deflateSync } from 'node:zlib';
import { HttpError } from './http';

export const TILE_SIZE = 256;
/** Tiles exist for zoom 0..MAX_TILE_ZOOM, as on a real tile server. */
export const MAX_TILE_ZOOM = 19;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of one tile. */
export function tilePng(z: number, x: number, y: number): Buffer {
  const shade = 200 + ((x * 7 + y * 13 + z * 3) % 40);
  const rows: Buffer[] = [];
  for (let row = 0; row < TILE_SIZE; row++) {
    const line = Buffer.alloc(1 + TILE_SIZE * 3); // filter byte 0: none
    for (let col = 0; col < TILE_SIZE; col++) {
      const border = row < 2 || col < 2;
      const offset = 1 + col * 3;
      line[offset] = border ? 120 : shade - 20;
      line[offset + 1] = border ? 140 : shade;
      line[offset + 2] = border ? 120 : shade - 30;
    }
    rows.push(line);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(TILE_SIZE, 0);
  header.writeUInt32BE(TILE_SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** The tile's z, x, y when they name one (0 <= x, y < 2^z); otherwise a 404 as a tile server gives. */
export function tileAt(z: string, x: string, y: string): { z: number; x: number; y: number } {
  const [zoom, column, row] = [z, x, y].map(Number);
  const span = 2 ** zoom;
  if (!(zoom <= MAX_TILE_ZOOM && column < span && row < span)) throw HttpError.of(404, 'not_found', `There is no tile ${z}/${x}/${y}.`);
  return { z: zoom, x: column, y: row };
}

export function handleTile(req: IncomingMessage, res: ServerResponse, z: string, x: string, y: string): void {
  const tile = tileAt(z, x, y);
  const body = tilePng(tile.z, tile.x, tile.y);
  res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': body.length, 'Cache-Control': 'max-age=3600' });
  res.end(req.method === 'HEAD' ? undefined : body);
}
