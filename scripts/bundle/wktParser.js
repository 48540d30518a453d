// wkt-parser for the bundles (see scripts/bundle/proj4.mjs): the mapping names coordinate systems
// as "EPSG:<code>" or proj4 strings, so WKT is not read.
'use strict';
module.exports = function wktNotRead() {
  throw new Error('WKT definitions are not read: give the coordinate system as "EPSG:<code>" or as a proj4 string ({ "proj4": "+proj=… " })');
};
