// Installs the code-server versions the integration and e2e steps need, ahead of them: `npm test`
// starts this once the type check has compiled it, so a version's download and build (minutes, on
// a fresh machine) overlap the build and the unit tests instead of running before the first
// integration suite. The steps themselves then find the install, or wait for it on its lock.
// Arguments: the versions as SPOT_VSCODE_VERSION names them ("oldest", "newest", 4.x.y).
import { ensureCodeServer, resolveCodeServerVersion } from './harness/codeServer';

async function main(): Promise<void> {
  for (const spec of process.argv.slice(2)) await ensureCodeServer(await resolveCodeServerVersion(spec));
}

main().catch((error: Error) => {
  // The step that needs it installs it itself (and says why it could not be had).
  console.error(`[code-server] the install ahead of the integration steps failed: ${error.message}`);
  process.exit(1);
});
