// jsonc-parser for the bundles: the functions our sources import, re-exported from its ES modules.
// As our module (rather than node_modules) it is shared like our sources (esbuild.js, shareWith):
// dist/coreRest.js has it, and dist/rows.js and dist/map.js take it from there instead of each
// carrying a second copy (about 3 KB of the .vsix each). A host keeps every name a shared module
// exports, so only the names used are listed: an import of another one fails the build with
// "No matching export", and belongs here. esbuild.js resolves 'jsonc-parser' to this file for the
// bundles; the unit tests use jsonc-parser directly. An ES module named .js, not .mjs: in a bundle
// that takes it from its host, a CommonJS module under the same name stands in for it.
export {
  applyEdits,
  findNodeAtLocation,
  findNodeAtOffset,
  getLocation,
  getNodeValue,
  modify,
  parse,
  ParseErrorCode,
  parseTree,
  printParseErrorCode,
  visit,
} from 'jsonc-parser';
