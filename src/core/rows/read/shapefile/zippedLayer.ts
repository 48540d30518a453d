// A shapefile layer handed over as a ZIP archive (layer.zip holding layer.shp, .dbf, .prj, .cpg):
// its files are read from the archive in place, within the archive's limits (zipArchive.ts), and
// the layer is then read as one beside its files is. The archive's layer is the one `source.entry`
// names, or the only .shp in it.
import { basename } from 'node:path';
import { l10n } from '../../../text/l10n';
import { ArchiveError, ZipArchive } from '../archive/zipArchive';
import { TableReadError } from '../tableReadError';
import type { SourceEncoding, SourceTable } from '../types';
import { layerTable } from './shapefileTable';
import { withMembers } from '../../../objects/withMembers';

/** @public (openTable.ts loads this module with require() when an archive is opened) */
export async function openZippedShapefile(path: string, given: { encoding?: SourceEncoding; entry?: string }): Promise<SourceTable> {
  const archive = await ZipArchive.forTable(path);
  try {
    // Finder's resource forks (__MACOSX/) are not layers.
    const layers = archive.names().filter((name) => /\.shp$/i.test(name) && !name.startsWith('__MACOSX/'));
    const shp = given.entry !== undefined ? layers.find((name) => name === given.entry) : layers.length === 1 ? layers[0] : undefined;
    if (!shp) {
      if (given.entry !== undefined)
        throw new TableReadError(path, l10n.t('the archive holds no layer {0}: its layers are {1}', given.entry, layers.join(', ') || l10n.t('none')));
      throw new TableReadError(
        path,
        layers.length === 0
          ? l10n.t('the archive holds no shapefile (.shp), and its source.format says shapefile')
          : l10n.t('the archive holds {0} layers ({1}): name one as source.entry in the mapping', layers.length, layers.join(', ')),
      );
    }
    const stem = shp.slice(0, -4);
    const entryOf = (extension: string) => archive.names().find((name) => name.toLowerCase() === `${stem}.${extension}`.toLowerCase());
    const dbf = entryOf('dbf');
    if (!dbf) throw new TableReadError(path, l10n.t('its attributes ({0}) are not in the archive', `${basename(stem)}.dbf`));
    const prj = entryOf('prj');
    const cpg = entryOf('cpg');
    const bytes = async (name: string) => {
      const chunks: Buffer[] = [];
      for await (const chunk of await archive.stream(name)) chunks.push(chunk as Buffer);
      return new Uint8Array(Buffer.concat(chunks));
    };
    const table = await layerTable(
      path,
      {
        shp: await bytes(shp),
        dbf: await bytes(dbf),
        names: { dbf: `${basename(path)}/${dbf}`, prj: `${basename(path)}/${prj ?? ''}`, cpg: `${basename(path)}/${cpg ?? ''}` },
        ...(prj ? { prj: await archive.text(prj) } : {}),
        ...(cpg ? { cpg: await archive.text(cpg) } : {}),
      },
      given,
    );
    // The layer named is part of the format as used: a mapping proposed for it must name it too.
    return given.entry === undefined ? table : withMembers(table, { format: withMembers(table.format, { entry: given.entry }) });
  } catch (error) {
    if (error instanceof ArchiveError) throw new TableReadError(path, error.message);
    throw error;
  } finally {
    archive.close();
  }
}
