// The core as the extension loads it: two bundles (esbuild.js). dist/core.js holds what the first
// network use needs, dist/coreRest.js the rest, and the extension's loader (lazyCore's wholeCore)
// hands out one namespace that loads the rest on first use of one of its names. Each check runs in
// a fresh process, as a new window's extension host is. The bundles are the ones in dist/ (npm
// test builds them before the unit tests).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const DIST = join(root, 'dist');
const LAZY_CORE = join(__dirname, '..', '..', 'src', 'extension', 'platform', 'lazyCore.js');
const CORE_INDEX = join(__dirname, '..', '..', 'src', 'core', 'index.js');

function inFreshProcess(body: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const script = `
    const path = require('path');
    const dist = ${JSON.stringify(DIST)};
    const loadedBundles = () => Object.keys(require.cache).filter((file) => path.dirname(file) === dist).map((file) => path.basename(file)).sort();
    ${body}
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000, env }));
}

describe("the core's two bundles", () => {
  it("dist/core.js alone makes the first request's objects, without loading dist/coreRest.js", () => {
    const result = inFreshProcess(`
      const core = require(path.join(dist, 'core.js'));
      const dispatcher = core.createDispatcher();
      const tokens = new core.TokenSource({ tokenUrl: 'https://example.invalid/token', clientId: 'a', clientSecret: 'b', dispatcher });
      const client = new core.ServiceClient({ baseUrl: 'https://example.invalid', tokens, dispatcher });
      dispatcher.close().then(() => console.log(JSON.stringify({
        loaded: loadedBundles(),
        made: [typeof tokens.getToken, typeof client.importSpot],
        mediaWorkflow: 'runImport' in core,
        restNamesListed: core.__restExports.includes('runImport') && core.__restExports.includes('validateSpotDocument'),
      })));
    `);
    assert.deepEqual(result, { loaded: ['core.js'], made: ['function', 'function'], mediaWorkflow: false, restNamesListed: true });
  });

  it("the code cache's warm-up runs a whole token request, against a loopback server of its own that it closes, even with a proxy set", () => {
    const result = inFreshProcess(
      `
      const { warmUpClient } = require(${JSON.stringify(LAZY_CORE)});
      const http = require('http');
      const servers = [];
      const createServer = http.createServer;
      http.createServer = (...args) => { const server = createServer(...args); servers.push(server); return server; };
      const core = require(path.join(dist, 'core.js'));
      // From its source text, as the worker runs it (codeCache.ts): it may name nothing but its arguments.
      const warmUp = new Function('exports', 'require', 'return (' + warmUpClient.toString() + ')(exports, require);');
      warmUp(core, require).then((token) => console.log(JSON.stringify({
        token,
        servers: servers.length,
        listening: servers.filter((server) => server.listening).length,
        loaded: loadedBundles(),
      })));
    `,
      // A proxy nobody listens on: the warm-up's request must not go there (loopback bypasses proxies).
      { ...process.env, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9' },
    );
    assert.deepEqual(result, { token: 'warm-up', servers: 1, listening: 0, loaded: ['core.js'] });
  });

  it("every export of the core is in dist/core.js or in its list of the rest's names, not both", () => {
    const result = inFreshProcess(`
      const core = require(path.join(dist, 'core.js'));
      const own = Object.keys(core).filter((name) => !name.startsWith('__'));
      const rest = core.__restExports;
      const all = Object.keys(require(${JSON.stringify(CORE_INDEX)}));
      console.log(JSON.stringify({
        missing: all.filter((name) => !own.includes(name) && !rest.includes(name)),
        both: own.filter((name) => rest.includes(name)),
        unknown: [...own, ...rest].filter((name) => !all.includes(name)),
      }));
    `);
    assert.deepEqual(result, { missing: [], both: [], unknown: [] });
  });

  it("the loader's namespace loads dist/coreRest.js on the first read of one of its names, once, and both bundles share the core's modules", () => {
    const result = inFreshProcess(`
      const { wholeCore } = require(${JSON.stringify(LAZY_CORE)});
      const client = require(path.join(dist, 'core.js'));
      let restLoads = 0;
      let loadedRest;
      const core = wholeCore(client, () => (loadedRest ??= (restLoads++, require(path.join(dist, 'coreRest.js')))));
      const beforeRest = { loaded: loadedBundles(), restLoads, tokenSourceIsTheBundles: core.TokenSource === client.TokenSource };
      const problems = core.validateSpotDocument({});
      const rest = require(path.join(dist, 'coreRest.js'));
      core.attributesOf({ attributes: {} });
      console.log(JSON.stringify({
        beforeRest,
        afterRest: loadedBundles(),
        restLoads,
        problemsFound: problems.ok === false && problems.problems.length > 0,
        sameErrors: rest.ServiceError === client.ServiceError && rest.AuthenticationError === client.AuthenticationError,
        sameValues: core.runImport === rest.runImport && core.validateSpotDocument === rest.validateSpotDocument,
        internalsHidden: Object.keys(core).filter((name) => name.startsWith('__')),
      }));
    `) as Record<string, unknown>;
    assert.deepEqual(result, {
      beforeRest: { loaded: ['core.js'], restLoads: 0, tokenSourceIsTheBundles: true },
      afterRest: ['core.js', 'coreRest.js'],
      restLoads: 1,
      problemsFound: true,
      sameErrors: true,
      sameValues: true,
      internalsHidden: [],
    });
  });

  it('dist/coreRest.js carries no second copy of undici or of mime-db (it takes them from dist/core.js)', () => {
    const rest = readFileSync(join(DIST, 'coreRest.js'), 'utf8');
    // Known by its errors' base class, a name our own code never writes (it does match undici's error codes).
    assert.ok(readFileSync(join(DIST, 'core.js'), 'utf8').includes('UndiciError'), 'dist/core.js has undici');
    assert.ok(!rest.includes('UndiciError'), 'dist/coreRest.js has undici too');
    assert.ok(!rest.includes('application/vnd.'), 'dist/coreRest.js has mime-db too');
  });
  it('has one copy of zod, in dist/core.js: the bundles loaded later check with it', () => {
    // A copy in each bundle cost about 25 KB of the .vsix (compressed), past its 450 KB budget.
    const withZod = ['core.js', 'coreRest.js', 'rows.js', 'sandbox.js'].filter((bundle) => readFileSync(join(DIST, bundle), 'utf8').includes('"$ZodString"'));
    assert.deepEqual(withZod, ['core.js']);
    const result = inFreshProcess(`
      const rows = require(path.join(dist, 'rows.js'));
      const problems = rows.parseMapping('m.mapping.json', '{ "topic_id": "5", "source_id": "id" }').problems;
      console.log(JSON.stringify({ messages: problems.map((problem) => problem.message).join(' | ') }));
    `) as { messages: string };
    assert.match(result.messages, /^topic_id: Invalid input/);
  });
});
