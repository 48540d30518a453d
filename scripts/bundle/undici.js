// What the bundles take from undici, instead of its index.js: the index loads every part of undici
// at once (fetch, WebSocket, EventSource, caches, mocks, cookies: about 400 KB of the 535 KB it
// adds to a bundle, and most of the time dist/core.js takes to load), while the core only uses
// request(), Agent and EnvHttpProxyAgent (src/core/api/http.ts and the request() callers).
// esbuild.js resolves `undici` to this file for the bundles; unit tests (tsc, out/) use undici's
// own index, so both are exercised. The lines below copy what undici 7's index.js does for these
// exports; a renamed internal path fails the build rather than a request. Nothing of undici runs
// until the first dispatcher or request: code that only validates documents never pays for it.
'use strict';

// undici's index.js gives every dispatcher these too (lib/api/index.js). Of them, only connect()
// is ever called: by undici's ProxyAgent, to tunnel through a proxy. stream(), pipeline() and
// upgrade() (7 KB, 2 KB of the .vsix) are called neither by the core nor by undici itself, so
// they are not bundled; a call says so.
const OTHER_APIS = {
  connect: () => require('undici/lib/api/api-connect'),
};
const NOT_BUNDLED = ['stream', 'pipeline', 'upgrade'];

let loaded;
/** undici's parts, loaded on the first request or dispatcher rather than with dist/core.js. */
function undici() {
  if (!loaded) {
    // The HTTP parser compiles on another thread while the first connection is made.
    require('./llhttpModule').prepare();
    const Dispatcher = require('undici/lib/dispatcher/dispatcher');
    const api = { request: require('undici/lib/api/api-request') };
    // As the index: every dispatcher gets request()/connect()/…; ProxyAgent tunnels with connect().
    // request() is what the core calls; connect() loads on its first call (through a proxy), so
    // the first request does not run its module.
    Dispatcher.prototype.request = api.request;
    for (const [name, load] of Object.entries(OTHER_APIS)) {
      Dispatcher.prototype[name] = function (...args) {
        return load().apply(this, args);
      };
    }
    for (const name of NOT_BUNDLED) {
      Dispatcher.prototype[name] = function () {
        throw new Error(`undici's ${name}() is not bundled (scripts/bundle/undici.js): the core sends its requests with request()`);
      };
    }
    loaded = {
      Dispatcher,
      api,
      Agent: require('undici/lib/dispatcher/agent'),
      errors: require('undici/lib/core/errors'),
      util: require('undici/lib/core/util'),
    };
  }
  return loaded;
}

/**
 * undici's request(url, options) (index.js makeDispatcher), except that undici's global
 * dispatcher is only created when a call passes no dispatcher of its own (the core always passes
 * one), so loading the core does not install an Agent as the global one of the whole process.
 */
function request(url, opts) {
  const { api, errors, util } = undici();
  const { InvalidArgumentError } = errors;
  if (!url || (typeof url !== 'string' && typeof url !== 'object' && !(url instanceof URL))) {
    throw new InvalidArgumentError('invalid url');
  }
  if (opts != null && typeof opts !== 'object') {
    throw new InvalidArgumentError('invalid opts');
  }
  if (opts && opts.path != null) {
    if (typeof opts.path !== 'string') throw new InvalidArgumentError('invalid opts.path');
    const path = opts.path.startsWith('/') ? opts.path : `/${opts.path}`;
    url = new URL(util.parseOrigin(url).origin + path);
  } else {
    if (!opts) opts = typeof url === 'object' ? url : {};
    url = util.parseURL(url);
  }
  if (opts.agent) throw new InvalidArgumentError('unsupported opts.agent. Did you mean opts.client?');
  // undici's code for FormData bodies is not bundled (esbuild.js, undiciSubset): refused here, as
  // an argument error, rather than when a connection writes the request.
  if (util.isFormDataLike(opts.body)) throw new InvalidArgumentError('FormData bodies are not bundled: send the multipart bytes as a stream');
  const dispatcher = opts.dispatcher ?? require('undici/lib/global').getGlobalDispatcher();
  return api.request.call(dispatcher, {
    ...opts,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}

// Getters: esbuild reads an import of these where it is used, so `new Agent()` loads undici then.
module.exports = {
  request,
  get Dispatcher() {
    return undici().Dispatcher;
  },
  get Agent() {
    return undici().Agent;
  },
  // Only with a proxy set: its module loads undici's proxy agents (HTTP and SOCKS5) with it.
  get EnvHttpProxyAgent() {
    undici();
    return require('undici/lib/dispatcher/env-http-proxy-agent');
  },
  get errors() {
    return undici().errors;
  },
};
