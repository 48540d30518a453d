// A file's text, streamed a read chunk at a time, decoded, the byte-order mark dropped: for a
// reader that finds its own ends (geojsonScanner.ts) and so need not be given whole lines, as
// decodedText.ts gives them. Holding lines back would hold a one-line GeoJSON in pieces of a
// megabyte and search each for a line break again with every chunk.
import { throwIfAborted } from '../../api/errors';
import { LineCounter } from './positions';
import { byteChunks, type TableBytes } from './tableBytes';
import { NotUtf8Error, byteOrderMarkLength, textDecoding } from './textDecoding';
import type { CellPosition, SourceEncoding } from './types';

/** Filled in when the text ended early at bytes that are not UTF-8: where they are. */
export interface TextStop {
  notUtf8?: CellPosition;
  /** The piece of bytes the first that is not UTF-8 is in: what tells which encoding the file is in, where the file's first bytes are plain ASCII. */
  notUtf8Bytes?: Uint8Array;
}

/**
 * The text in chunks as they decode. When bytes that are not UTF-8 come, the text before them is
 * given, `stop.notUtf8` says where they are, and the text ends. Aborting the signal throws
 * CancelledError.
 */
export async function* decodedChunks(source: TableBytes, encoding: SourceEncoding, stop: TextStop, signal?: AbortSignal): AsyncGenerator<string> {
  const decoding = textDecoding(encoding);
  const counter = new LineCounter();
  const chunks = byteChunks(source);
  let first = true;
  try {
    for (;;) {
      throwIfAborted(signal);
      const next = await chunks.next();
      const final = next.done === true;
      let bytes: Uint8Array = final ? EMPTY : next.value;
      if (first && !final) bytes = bytes.subarray(byteOrderMarkLength(bytes, encoding));
      // A byte-order mark is only at the very start (a stream's first chunk is never empty).
      if (!final) first = false;
      let piece: string;
      try {
        piece = decoding.decode(bytes, final);
      } catch (error) {
        if (!(error instanceof NotUtf8Error)) throw error;
        counter.advance(error.text);
        stop.notUtf8 = counter.position;
        stop.notUtf8Bytes = bytes;
        if (error.text) yield error.text;
        return;
      }
      // Counted only for where bytes that are not UTF-8 would be.
      if (encoding === 'utf-8') counter.advance(piece);
      if (piece) yield piece;
      if (final) return;
    }
  } finally {
    await chunks.return(undefined);
  }
}

const EMPTY = new Uint8Array(0);
