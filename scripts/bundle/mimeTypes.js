// mime-types for the bundles, loaded on first use: on load it builds its extension and type maps
// from all of mime-db, about 10 ms that requiring dist/core.js would otherwise pay although only
// the media steps (uploads, accepted types, media addresses) ever look a type up.
// esbuild.js resolves `mime-types` to this file for the bundles; the unit tests use it directly.
'use strict';

let loaded;
const mime = () => (loaded ??= require('mime-types/index.js'));

module.exports = {
  lookup: (path) => mime().lookup(path),
  extension: (type) => mime().extension(type),
  contentType: (str) => mime().contentType(str),
  charset: (type) => mime().charset(type),
  get charsets() {
    return mime().charsets;
  },
  get types() {
    return mime().types;
  },
  get extensions() {
    return mime().extensions;
  },
};
