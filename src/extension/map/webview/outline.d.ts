// Made at build time by esbuild.js (plugin world-outline): src/core/map/outline.ts's compact rings.
declare module 'spot-world-outline' {
  const rings: number[][];
  export default rings;
}

// The same plugin: the borders between countries (topologyToBorders' compact polylines).
declare module 'spot-world-borders' {
  const lines: number[][];
  export default lines;
}

// The same plugin: the large lakes (rings) and rivers (polylines), as the borders are kept (topologyToWater).
declare module 'spot-world-water' {
  const water: { lakes: number[][]; rivers: number[][] };
  export default water;
}
