// What a reader still holds, for the tests that bound it: the heap and buffers in use after a full
// collection, with V8's collector reached without starting Node with --expose-gc.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's collector: a new context gets it once the flag is set. */
export function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Heap and buffers in use after a full collection: what is still held. */
export function heldBytes(gc: () => void): number {
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}
