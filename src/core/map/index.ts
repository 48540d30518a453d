// The map's pure part (no vscode): markers from documents, the offline outline, coordinates for
// Pick Location, the tile setting. Bundled into dist/map.js only, which loads when a map opens.
export * from './markers';
export * from './coordinates';
export * from './tiles';
export * from './outline';
