// Media the check read, kept in memory until they are sent. A small file is then read once, not
// twice (once to hash it, once to send it), and what goes out is exactly the content the check
// hashed, whatever happens to the file in between: its content is its identity in the journal.
// Larger files, and any beyond the run's budget, are read again when sent and compared with their
// hash as they stream (see UploadOptions.sha256).

import { giveBackHoldBuffer } from '../files/readBuffers';

/** Files up to this size are held: one read of the file, like an upload's own single read. */
export const HOLD_FILE_BYTES = 1024 * 1024;

/**
 * Bytes one run holds at most, shared by the spots checked ahead and those whose requests are
 * under way (up to 2 × concurrency); a spot gives its bytes back when its requests are over.
 */
const HOLD_RUN_BYTES = 48 * 1024 * 1024;

/** A file whose checked bytes may be held. */
export interface HoldsContent {
  size: number;
  /** The bytes the check hashed, until the spot is finished. */
  content?: Buffer;
}

export class HeldContent {
  private left: number;

  constructor(budgetBytes = HOLD_RUN_BYTES) {
    this.left = budgetBytes;
  }

  /** Room for a file of this size, taken from the budget; false: read it again when it is sent. */
  reserve(size: number): boolean {
    if (size > HOLD_FILE_BYTES || size > this.left) return false;
    this.left -= size;
    return true;
  }

  /** Gives back the room of a reservation that got no content (the read failed). */
  unreserve(size: number): void {
    this.left += size;
  }

  /**
   * Drops what the files hold, gives their memory back for the next file's read (which takes up
   * to a quarter more than the file: files/readBuffers.ts) and their room back to the run; safe to
   * call more than once. Only once nothing uses the bytes: their upload is over, or never began.
   */
  release(files: Iterable<HoldsContent>): void {
    for (const file of files) {
      if (!file.content) continue;
      giveBackHoldBuffer(file.content);
      file.content = undefined;
      this.left += file.size;
    }
  }
}
