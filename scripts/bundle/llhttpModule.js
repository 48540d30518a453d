// undici's HTTP parser (llhttp, WebAssembly) compiled off the main thread, started when the first
// dispatcher is made (scripts/bundle/undici.js): the first connection then takes the compiled
// module instead of compiling it on the main thread while its request waits. A connection made
// before the compile is done compiles it as undici does (esbuild.js points client-h1.js here).
'use strict';

let compiled;
let started = false;

/** Starts compiling the parser, once; a failure leaves the compile to the first connection. */
function prepare() {
  if (started) return;
  started = true;
  try {
    const bytes = require('undici/lib/llhttp/llhttp-wasm.js');
    WebAssembly.compile(bytes).then(
      (module) => {
        compiled ??= module;
      },
      () => undefined,
    );
  } catch {
    // The first connection compiles it and reports what is wrong.
  }
}

/** The parser's module: the one compiled ahead when it is ready, else compiled now from `bytes`. */
function take(bytes) {
  compiled ??= new WebAssembly.Module(bytes);
  return compiled;
}

module.exports = { prepare, take };
