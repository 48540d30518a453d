// The buffers that reads of media files fill (hashing a file, sending one), kept for the next
// read. A fresh buffer per read is memory outside V8's heap, and V8 answers a few tens of MB of
// it with full garbage collections, frequent while photos are sent. Kept buffers are never freed,
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

// Held content (a media file read whole by its check, then sent from memory: media/heldContent.ts)
// takes its memory here too, for the same reason: a fresh buffer for each file of a few hundred
// KB is memory outside V8's heap that the next full garbage collection has to account for. The
// memory comes in size classes (64 KiB × 2^(k/4) in whole pages: about a tenth, at most a quarter,
// more than a file needs, and files of similar size share a class), is given back once the
// file's upload is over, and is kept for the next file of its class.

/** Held content smaller than this takes ordinary memory (Node's pool serves small buffers well). */
const HOLD_CLASS_MIN = 64 * 1024;
/** Bytes of held-content memory kept for reuse, over all classes. */
const HOLD_KEPT_BYTES = 32 * 1024 * 1024;

const heldSpare = new Map<number, ArrayBuffer[]>();
let heldSpareBytes = 0;
/** Memory handed out by takeHoldBuffer and not yet given back: only that is ever kept. */
const heldOut = new WeakSet<ArrayBuffer>();

/** The size class of a held content of `bytes` (undefined: small, ordinary memory). */
function holdClass(bytes: number): number | undefined {
  if (bytes < HOLD_CLASS_MIN) return undefined;
  const step = Math.ceil(4 * Math.log2(bytes / HOLD_CLASS_MIN));
  // Whole 4 KiB pages; the next step up when rounding left it short.
  for (let k = Math.max(0, step - 1); ; k++) {
    const size = Math.ceil((HOLD_CLASS_MIN * 2 ** (k / 4)) / 4096) * 4096;
    if (size >= bytes) return size;
  }
}

/** A buffer of `bytes` for a held content; its content is whatever it held before. */
export function takeHoldBuffer(bytes: number): Buffer {
  const size = holdClass(bytes);
  if (size === undefined) return Buffer.allocUnsafe(bytes);
  const spare = heldSpare.get(size)?.pop();
  if (spare) heldSpareBytes -= size;
  const memory = spare ?? new ArrayBuffer(size);
  heldOut.add(memory);
  return Buffer.from(memory, 0, bytes);
}

/**
 * Gives back the memory of a held content (any view of it) once nothing uses its bytes: its
 * upload is over, or it was never sent. Memory takeHoldBuffer did not hand out is left alone.
 */
export function giveBackHoldBuffer(content: Uint8Array): void {
  const memory = content.buffer;
  if (!(memory instanceof ArrayBuffer) || !heldOut.has(memory)) return;
  heldOut.delete(memory);
  if (heldSpareBytes + memory.byteLength > HOLD_KEPT_BYTES) return;
  const spareOfClass = heldSpare.get(memory.byteLength) ?? [];
  heldSpare.set(memory.byteLength, spareOfClass);
  spareOfClass.push(memory);
  heldSpareBytes += memory.byteLength;
}
