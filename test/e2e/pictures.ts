// Small landscape pictures for the e2e tests, drawn here as PNG files (so the screenshots show
// real images without binary fixtures in the repository): a sky gradient, a sun, two hills.
import * as fs from 'fs';
import { rgbPng } from '../../src/sandbox/rgbPng';

export interface Palette {
  skyTop: [number, number, number];
  skyBottom: [number, number, number];
  sun: [number, number, number];
  far: [number, number, number];
  near: [number, number, number];
}

export const PALETTES: Record<string, Palette> = {
  dawn: { skyTop: [255, 170, 120], skyBottom: [255, 228, 170], sun: [255, 245, 200], far: [150, 110, 150], near: [80, 60, 100] },
  lake: { skyTop: [60, 130, 220], skyBottom: [180, 220, 250], sun: [255, 250, 210], far: [70, 120, 150], near: [30, 90, 120] },
  meadow: { skyTop: [120, 190, 240], skyBottom: [220, 240, 255], sun: [255, 230, 120], far: [110, 170, 90], near: [50, 130, 60] },
};

/** Writes a width × height PNG of the palette's landscape to `file`. */
export function writeLandscape(file: string, palette: Palette, width = 320, height = 240): void {
  const rows: Buffer[] = [];
  const sunX = width * 0.7;
  const sunY = height * 0.3;
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0, then RGB
    for (let x = 0; x < width; x++) {
      let colour = mix(palette.skyTop, palette.skyBottom, y / height);
      if (Math.hypot(x - sunX, y - sunY) < height * 0.12) colour = palette.sun;
      const farHill = height * 0.62 - Math.sin((x / width) * Math.PI * 1.5) * height * 0.12;
      const nearHill = height * 0.78 - Math.cos((x / width) * Math.PI * 2.2) * height * 0.08;
      if (y > farHill) colour = palette.far;
      if (y > nearHill) colour = mix(palette.near, [0, 0, 0], ((y - nearHill) / height) * 0.8);
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const png = rgbPng(width, rows);
  fs.writeFileSync(file, png);
}

function mix(a: readonly number[], b: readonly number[], t: number): [number, number, number] {
  const k = Math.max(0, Math.min(1, t));
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * k)) as [number, number, number];
}
