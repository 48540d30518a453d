// A child process for the kill test of photo downloads: fetches one photo into a cache as a run
// does, and is killed (SIGKILL) by the test while the body arrives, so its temporary file stays.
// Usage: node photoFetchChild.js <cacheDir> <address>
import { PhotoFetcher } from '../../../src/core/media/remote/photoFetcher';

const [cacheDir, address] = process.argv.slice(2);
new PhotoFetcher({ cacheDir }).fetch(address).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
