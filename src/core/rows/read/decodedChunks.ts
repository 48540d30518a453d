// A file's text, streamed a read chunk at a time, decoded, the byte-order mark dropped: for a
// reader that finds its own ends (geojsonScanner.ts) and so need not be given whole lines, as
// decodedText.ts gives them. Holding lines back would hold a one-line GeoJSON in pieces of a
// megabyte and search each for a line break again with every chunk.
import { open } from 'node:fs/promises';
import { throwIfAborted } from '../../api/errors';
import { READ_CHUNK_BYTES } from './limits';
import { LineCounter } from './positions';
import { NotUtf8Error, byteOrderMarkLength, textDecoding } from './textDecoding';
import type { CellPosition, SourceEncoding } from './types';

/** Filled in when the text ended early at bytes that are not UTF-8: where they are. */
export interface TextStop {
  notUtf8?: CellPosition;
}

/**
 * The text in chunks as they decode. When bytes that are not UTF-8 come, the text before them is
 * given, `stop.notUtf8` says where they are, and the text ends. Aborting the signal throws
 * CancelledError.
 */
export async function* decodedChunks(path: string, encoding: SourceEncoding, stop: TextStop, signal?: AbortSignal): AsyncGenerator<string> {
  const handle = await open(path, 'r');
  try {
    const decoding = textDecoding(encoding);
    const counter = new LineCounter();
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let offset = 0;
    for (;;) {
      throwIfAborted(signal);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      let bytes = buffer.subarray(0, bytesRead);
      if (offset === 0) bytes = bytes.subarray(byteOrderMarkLength(bytes, encoding));
      offset += bytesRead;
      const final = bytesRead === 0;
      let piece: string;
      try {
        piece = decoding.decode(bytes, final);
      } catch (error) {
        if (!(error instanceof NotUtf8Error)) throw error;
        counter.advance(error.text);
        stop.notUtf8 = counter.position;
        if (error.text) yield error.text;
        return;
      }
      // Counted only for where bytes that are not UTF-8 would be.
      if (encoding === 'utf-8') counter.advance(piece);
      if (piece) yield piece;
      if (final) return;
    }
  } finally {
    await handle.close();
  }
}
