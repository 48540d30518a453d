// Tiles under the map are the user's choice (setting spotImport.map.tiles): an XYZ URL template
// and the attribution the tile server requires. The page's Content Security Policy lets images
// come from exactly that template's origin, so the template must name one host: no {s}
// subdomains, https (or http on loopback only, for the sandbox's generated tiles).
import { l10n } from '../text/l10n';

export interface TileSetting {
  url?: unknown;
  attribution?: unknown;
}

interface TileSource {
  /** The template as Leaflet takes it: {z}, {x}, {y}. */
  template: string;
  /** scheme://host[:port], for img-src. */
  origin: string;
  attribution: string;
}

/** OpenStreetMap's standard tiles, with the attribution their tile usage policy requires. */
export const OSM_TILES = {
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '© OpenStreetMap contributors (openstreetmap.org/copyright)',
} as const;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type TileResult = { ok: true; source: TileSource } | { ok: false; reason: string } | { ok: true; source: undefined };

/** The setting as a tile source; { source: undefined } when none is set (the outline alone). */
export function parseTileSetting(setting: TileSetting | undefined | null): TileResult {
  if (!setting || setting.url === undefined || setting.url === '') return { ok: true, source: undefined };
  if (typeof setting.url !== 'string') return { ok: false, reason: l10n.t('spotImport.map.tiles.url must be a text.') };
  const template = setting.url.trim();
  for (const placeholder of ['{z}', '{x}', '{y}']) {
    if (!template.includes(placeholder)) return { ok: false, reason: l10n.t('The tile URL must contain {0}.', placeholder) };
  }
  if (/\{(?!z\}|x\}|y\})[^}]*\}/.test(template))
    return { ok: false, reason: l10n.t('The tile URL may only use {z}, {x} and {y} (one host: no {s} subdomains).') };
  let url: URL;
  try {
    url = new URL(template.replace(/\{([zxy])\}/g, '0'));
  } catch {
    return { ok: false, reason: l10n.t('The tile URL is not a URL: {0}', template) };
  }
  if (url.username || url.password) return { ok: false, reason: l10n.t('The tile URL must not carry a user name or password.') };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return { ok: false, reason: l10n.t('The tile URL must use https (http only on this machine, 127.0.0.1 or localhost).') };
  }
  const attribution = typeof setting.attribution === 'string' ? setting.attribution.trim() : '';
  if (!attribution) return { ok: false, reason: l10n.t('spotImport.map.tiles.attribution is required: tile servers require their attribution on the map.') };
  return { ok: true, source: { template, origin: url.origin, attribution } };
}

/**
 * The map page's Content Security Policy: nothing but the page's own script (by nonce) and the
 * extension's style sheet; images only from the extension, data: (Leaflet's small pictures) and
 * exactly the configured tile server's origin. No connect-src: the page fetches nothing; markers
 * come by message and the outline is in the script.
 */
export function mapContentSecurityPolicy(cspSource: string, nonce: string, tileOrigin: string | undefined): string {
  const images = [cspSource, 'data:', ...(tileOrigin ? [tileOrigin] : [])].join(' ');
  return `default-src 'none'; img-src ${images}; style-src ${cspSource}; font-src ${cspSource}; script-src 'nonce-${nonce}';`;
}
