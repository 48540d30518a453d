// The sandbox's route table. Paths are matched exactly (no trailing slash, no prefix guessing),
// as a strict server would: anything else is a 404, a known path with the wrong method a 405.
import { SANDBOX_FILES_PREFIX, type SandboxRequestKind } from './types';

export type RouteName = 'token' | 'import' | 'gallery' | 'upload' | 'mediaOrder' | 'files' | 'tiles' | 'counters' | 'faults' | 'expireTokens';

export interface RouteMatch {
  name: RouteName;
  methods: readonly string[];
  /** The API version in the path, e.g. 'v2.4' (API routes only). */
  version?: string;
  /** The raw gallery id path segment, checked by the handler (a non-integer is a 400). */
  galleryId?: string;
  /** Files route: the media id segment and the file name path after it, both still encoded. */
  mediaId?: string;
  filePath?: string;
  /** Tiles route: zoom, column and row, digits only (checked by the handler). */
  tile?: { z: string; x: string; y: string };
}

const VERSION = '(?<version>v\\d+(?:\\.\\d+)?)';
const SEGMENT = '(?<gallery>[^/]+)';

interface RouteDef {
  name: RouteName;
  pattern: RegExp;
  methods: readonly string[];
}

const ROUTES: RouteDef[] = [
  { name: 'token', pattern: /^\/api\/v2\/access_token$/, methods: ['POST'] },
  { name: 'token', pattern: /^\/oauth2\/access_token$/, methods: ['POST'] },
  { name: 'import', pattern: new RegExp(`^/api/${VERSION}/spots/import$`), methods: ['POST'] },
  { name: 'gallery', pattern: new RegExp(`^/api/${VERSION}/galleries/${SEGMENT}$`), methods: ['GET', 'HEAD'] },
  { name: 'upload', pattern: new RegExp(`^/api/${VERSION}/galleries/${SEGMENT}/media$`), methods: ['POST'] },
  { name: 'mediaOrder', pattern: new RegExp(`^/api/${VERSION}/galleries/${SEGMENT}/media/order$`), methods: ['POST'] },
  // The public files host's counterpart: no version, no token (see files.ts).
  { name: 'files', pattern: new RegExp(`^${SANDBOX_FILES_PREFIX}/(?<media>[^/]+)/(?<file>.+)$`), methods: ['GET', 'HEAD'] },
  // Generated map tiles for the map's tile layer (see tiles.ts).
  { name: 'tiles', pattern: /^\/__sandbox\/tiles\/(?<z>\d{1,2})\/(?<x>\d{1,7})\/(?<y>\d{1,7})\.png$/, methods: ['GET', 'HEAD'] },
  { name: 'counters', pattern: /^\/__sandbox\/counters$/, methods: ['GET'] },
  { name: 'faults', pattern: /^\/__sandbox\/faults$/, methods: ['GET', 'POST'] },
  { name: 'expireTokens', pattern: /^\/__sandbox\/expire-tokens$/, methods: ['POST'] },
];

export function matchRoute(pathname: string): RouteMatch | undefined {
  for (const route of ROUTES) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const result: RouteMatch = { name: route.name, methods: route.methods };
    const groups = match.groups ?? {};
    if (groups.version !== undefined) result.version = groups.version;
    if (groups.gallery !== undefined) result.galleryId = decodeSegment(groups.gallery);
    if (groups.media !== undefined) result.mediaId = groups.media;
    if (groups.file !== undefined) result.filePath = groups.file;
    if (groups.z !== undefined) result.tile = { z: groups.z, x: groups.x, y: groups.y };
    return result;
  }
  return undefined;
}

/** Which fault-injection class a route belongs to; the /__sandbox endpoints belong to none. */
export function requestKind(name: RouteName): SandboxRequestKind | undefined {
  switch (name) {
    case 'token':
      return 'token';
    case 'import':
      return 'import';
    case 'gallery':
    case 'mediaOrder':
      return 'gallery';
    case 'upload':
      return 'upload';
    default:
      return undefined;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a broken escape is simply not an integer id: the handler answers 400
  }
}
