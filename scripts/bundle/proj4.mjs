// proj4 for the bundles: its core with the projections survey tables use, in place of the whole
// library (about 45 KB less of dist/rows.js and the command line). esbuild.js resolves `proj4` to
// this file for the bundles; the unit tests run on the whole library. Left out: the world-map and
// exotic projections (robin, moll, sinu, eqearth, ortho, geos, …), MGRS grid references, and WKT
// definitions (the mapping takes "EPSG:<code>" or a proj4 string; a WKT string gets the message below),
// and with them the 440 datums proj4 knows by WKT's authority codes (EPSG_4314, …): a proj4 string's
// +datum= names one of the named datums, which stay (esbuild.js, leanProj4).
// Every built-in EPSG code (epsgDefinitions.generated.ts) uses one of these; test/unit/rowsBundle.test.ts
// transforms one point of each through the bundled command line.
import core from 'proj4/lib/core';
import Proj from 'proj4/lib/Proj';
import tmerc from 'proj4/lib/projections/tmerc';
import etmerc from 'proj4/lib/projections/etmerc';
import utm from 'proj4/lib/projections/utm';
import sterea from 'proj4/lib/projections/sterea';
import stere from 'proj4/lib/projections/stere';
import somerc from 'proj4/lib/projections/somerc';
import omerc from 'proj4/lib/projections/omerc';
import lcc from 'proj4/lib/projections/lcc';
import krovak from 'proj4/lib/projections/krovak';
import cass from 'proj4/lib/projections/cass';
import laea from 'proj4/lib/projections/laea';
import aea from 'proj4/lib/projections/aea';
import eqc from 'proj4/lib/projections/eqc';
import poly from 'proj4/lib/projections/poly';

for (const projection of [tmerc, etmerc, utm, sterea, stere, somerc, omerc, lcc, krovak, cass, laea, aea, eqc, poly]) Proj.projections.add(projection);

const proj4 = Object.assign(core, { defaultDatum: 'WGS84', Proj, WGS84: new Proj('WGS84') });
export default proj4;
