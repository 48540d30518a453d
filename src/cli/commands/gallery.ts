// spot-import gallery <id>: the gallery and its media as a table, or (--format json) as one JSON
// line with the gallery as the core reads it from the service's reply.
import type { Gallery } from '../../core';
import { connect } from '../connect';
import { EXIT } from '../exit';
import { getTokenOrFail, toCliError } from '../serviceFailure';
import { resolveSettings, type ConnectionFlags } from '../settings/resolveSettings';
import type { CliContext } from '../context';
import { printable } from '../../core/text/printable';

export interface GalleryOptions extends ConnectionFlags {
  format: 'text' | 'json';
}

export async function runGallery(galleryId: number, options: GalleryOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings(options, context.env, context.cwd);
  const connection = await connect(settings, { secretFromStdin: !!options.clientSecretStdin, env: context.env });
  try {
    // No token is exit 2 whatever the service answered (the address or the credentials are wrong);
    // the read then uses the token this fetched.
    await getTokenOrFail(connection.tokens);
    let gallery: Gallery;
    try {
      gallery = await connection.client.getGallery(galleryId);
    } catch (error) {
      throw toCliError(error);
    }
    context.stdout.write(options.format === 'json' ? `${JSON.stringify({ type: 'gallery', ...gallery })}\n` : galleryTable(gallery));
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

/** The names and types are the server's: printed without control characters (printable). */
function galleryTable(gallery: Gallery): string {
  const head = `Gallery ${gallery.id}: kind ${gallery.kind}, state ${gallery.state}, ${gallery.media.length} media item${gallery.media.length === 1 ? '' : 's'}\n`;
  if (gallery.media.length === 0) return head;
  const rows = [['ID', 'FILE', 'TYPE'], ...gallery.media.map((media) => [String(media.id), printable(media.file), printable(media.mimeType)])];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column].length)));
  return head + rows.map((row) => `  ${row[0].padStart(widths[0])}  ${row[1].padEnd(widths[1])}  ${row[2]}`.trimEnd()).join('\n') + '\n';
}
