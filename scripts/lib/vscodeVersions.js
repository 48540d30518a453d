// Which VS Code versions the integration suite and the e2e tests run on, for npm test and the
// npm run test:* scripts. The versions themselves (which code-server "oldest" and "newest" are) live
// in one place: VSCODE_VERSIONS in test/integration/launchers/harness/codeServer.ts.
//
// SPOT_VSCODE_VERSION: one version or a comma list (oldest, newest, latest, 4.x.y, 1.x.y).
// Unset: oldest and newest when CI is set; only oldest otherwise (a local run stays quick, and a
// developer without the newest installed does not wait for its first install of a few minutes).

/** CI is set (to anything but an explicit "false" or "0"). */
function inCi(env = process.env) {
  const ci = (env.CI ?? '').trim().toLowerCase();
  return ci !== '' && ci !== 'false' && ci !== '0';
}

/** The CI default: both ends of the range the extension supports. */
const CI_VERSIONS = ['oldest', 'newest'];

/** The version specs to run on, in order, each passed to one run as SPOT_VSCODE_VERSION. */
function vscodeVersionsToTest(env = process.env) {
  const given = (env.SPOT_VSCODE_VERSION ?? '')
    .split(',')
    .map((spec) => spec.trim())
    .filter(Boolean);
  if (given.length) return [...new Set(given)];
  return inCi(env) ? [...CI_VERSIONS] : ['oldest'];
}

module.exports = { inCi, vscodeVersionsToTest, CI_VERSIONS };
