// GET /__sandbox/tiles/{z}/{x}/{y}.png: generated map tiles, so the map's tile loading (the
// setting spotImport.map.tiles, the page's Content Security Policy, Leaflet's tile layer) is
// exercised for real on loopback, with no traffic to a tile server. Each tile is a small PNG: a
// pale fill with a darker border (the grid shows where tiles meet), its shade varying with x, y
// and z so neighbouring tiles differ (rgbPng.ts writes it).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http';
import { rgbPng } from './rgbPng';

const TILE_SIZE = 256;
/** Tiles exist for zoom 0..MAX_TILE_ZOOM, as on a real tile server. */
const MAX_TILE_ZOOM = 19;

/** An RGB PNG of one tile. */
function tilePng(z: number, x: number, y: number): Buffer {
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
  return rgbPng(TILE_SIZE, rows);
}

/** The tile's z, x, y when they name one (0 <= x, y < 2^z); otherwise a 404 as a tile server gives. */
function tileAt(z: string, x: string, y: string): { z: number; x: number; y: number } {
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
