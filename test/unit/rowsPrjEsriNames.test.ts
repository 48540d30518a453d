// A shapefile's .prj as ArcGIS writes it: no AUTHORITY, only ESRI's name for the system and its
// parameters. ESRI writes "WGS_1984_UTM_Zone_33N" where EPSG names "WGS 84 / UTM zone 33N", and
// names a few systems its own way ("ETRS_1989_LAEA" for "ETRS89-extended / LAEA Europe"). The
// codes expected are EPSG's: UTM zone n north is 32600 + n on WGS 84, 25800 + n on ETRS89, 26900 + n
// on NAD83; the others from EPSG's register. A name whose parameters are not the system's (a zone
// 33 with the central meridian of zone 32) is not taken: the mapping says the crs then.
import * as assert from 'node:assert/strict';
import { crsOfPrj } from '../../src/core/rows/values/prjCrs';

const GRS80 = 'SPHEROID["GRS_1980",6378137.0,298.257222101]';
const WGS84 = 'SPHEROID["WGS_1984",6378137.0,298.257223563]';

/** A number as ArcGIS writes it: 500000.0, 16.33333333333333. */
const esriNumber = (value: number) => (Number.isInteger(value) ? value.toFixed(1) : String(value));

function esriTransverseMercator(
  name: string,
  spheroid: string,
  {
    centralMeridian,
    falseEasting = 500000,
    falseNorthing = 0,
    scale = 0.9996,
  }: { centralMeridian: number; falseEasting?: number; falseNorthing?: number; scale?: number },
): string {
  return `PROJCS["${name}",GEOGCS["GCS_X",DATUM["D_X",${spheroid}],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",${esriNumber(falseEasting)}],PARAMETER["False_Northing",${esriNumber(falseNorthing)}],PARAMETER["Central_Meridian",${esriNumber(centralMeridian)}],PARAMETER["Scale_Factor",${scale}],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]`;
}

describe('rows: a .prj as ArcGIS writes it, named the ESRI way', () => {
  it('knows UTM zones on WGS 84, ETRS89 and NAD83 by their ESRI names', () => {
    for (const zone of [31, 32, 33, 34]) {
      const centralMeridian = zone * 6 - 183;
      assert.equal(crsOfPrj(esriTransverseMercator(`WGS_1984_UTM_Zone_${zone}N`, WGS84, { centralMeridian })), `EPSG:${32600 + zone}`);
      assert.equal(crsOfPrj(esriTransverseMercator(`ETRS_1989_UTM_Zone_${zone}N`, GRS80, { centralMeridian })), `EPSG:${25800 + zone}`);
    }
    assert.equal(crsOfPrj(esriTransverseMercator('NAD_1983_UTM_Zone_10N', GRS80, { centralMeridian: -123 })), 'EPSG:26910');
  });

  it("knows the national grids ESRI names its own way, and ETRS89's geographic system", () => {
    assert.equal(
      crsOfPrj(
        `PROJCS["ETRS_1989_LAEA",GEOGCS["GCS_ETRS_1989",DATUM["D_ETRS_1989",${GRS80}],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Azimuthal_Equal_Area"],PARAMETER["False_Easting",4321000.0],PARAMETER["False_Northing",3210000.0],PARAMETER["Central_Meridian",10.0],PARAMETER["Latitude_Of_Origin",52.0],UNIT["Meter",1.0]]`,
      ),
      'EPSG:3035',
    );
    assert.equal(
      crsOfPrj(esriTransverseMercator('ETRS_1989_Poland_CS92', GRS80, { centralMeridian: 19, falseNorthing: -5300000, scale: 0.9993 })),
      'EPSG:2180',
    );
    assert.equal(crsOfPrj(esriTransverseMercator('GGRS_1987_Greek_Grid', GRS80, { centralMeridian: 24 })), 'EPSG:2100');
    assert.equal(crsOfPrj(esriTransverseMercator('ETRS_1989_TM35FIN(E,N)', GRS80, { centralMeridian: 27 })), 'EPSG:3067');
    assert.equal(crsOfPrj(`GEOGCS["GCS_ETRS_1989",DATUM["D_ETRS_1989",${GRS80}],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]`), 'EPSG:4258');
  });

  it("takes no name whose parameters are another system's: the mapping's crs says it then", () => {
    assert.equal(crsOfPrj(esriTransverseMercator('ETRS_1989_UTM_Zone_33N', GRS80, { centralMeridian: 9 })), undefined);
    assert.equal(crsOfPrj(esriTransverseMercator('WGS_1984_UTM_Zone_33N', WGS84, { centralMeridian: 15, falseEasting: 33500000 })), undefined);
    // ArcGIS's GK East, the name and parameters the built-in EPSG:31256 has, is still known.
    assert.equal(
      crsOfPrj(
        esriTransverseMercator('MGI_Austria_GK_East', 'SPHEROID["Bessel_1841",6377397.155,299.1528128]', {
          centralMeridian: 16.33333333333333,
          falseEasting: 0,
          falseNorthing: -5000000,
          scale: 1,
        }),
      ),
      'EPSG:31256',
    );
  });
});
