// The buffers that reads of media files fill (hashing a file, sending one), kept for the next
// read. A fresh buffer per read is memory outside V8's heap, and V8 answers a few tens of MB of
// it with full garbage collections: sending photos of a few MB each, a fresh 1 MiB buffer per
// read set off one every ~60 ms, and their marking, sweeping and the recompilation of the code
// they flushed took about a third of the upload's processor time. Kept buffers are never freed,
// so they cost nothing after the first few files.

/** Bytes per buffer: one read of most media, larger reads than a stream's 64 KiB. */
export const READ_BUFFER_BYTES = 1024 * 1024;

/** Spare buffers kept at most (16 MiB): more than the uploads and hashes a run has at once need. */
const KEPT = 16;

const spare: Buffer[] = [];

/** A buffer of READ_BUFFER_BYTES, spare or new; its content is whatever it held before. */
export function takeReadBuffer(): Buffer {
  return spare.pop() ?? Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
}

/**
 * Gives a buffer back for the next read. Only once nothing uses its bytes any more: a buffer
 * handed to a connection is given back once the request's reply has been read (see OpenedFile).
 */
export function giveBackReadBuffer(buffer: Buffer): void {
  if (buffer.length === READ_BUFFER_BYTES && spare.length < KEPT && !spare.includes(buffer)) spare.push(buffer);
}
