// What loading the core costs a window that only validates or sends a document: one-time set-ups
// that only the media workflow needs wait for their first use. Each check runs in a fresh process,
// as a new window's extension host is.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const CORE = join(__dirname, '..', '..', 'src', 'core', 'index.js');

function inFreshProcess(body: string): unknown {
  const script = `
    let collators = 0;
    const Collator = Intl.Collator;
    Intl.Collator = new Proxy(Collator, { construct(target, args) { collators++; return new target(...args); } });
    const core = require(${JSON.stringify(CORE)});
    ${body}
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000 }));
}

describe('loading the core', () => {
  it('makes no collator (ICU loads its collation data, about 8 ms) until media names are first compared', () => {
    const result = inFreshProcess(`
      const atLoad = collators;
      const sorted = ['10.jpg', '2.jpg', '1.jpg'].sort(core.compareMediaNames);
      const afterFirstUse = collators;
      ['b', 'a'].sort(core.compareMediaNames);
      console.log(JSON.stringify({ atLoad, sorted, afterFirstUse, afterSecondUse: collators }));
    `);
    assert.deepEqual(result, { atLoad: 0, sorted: ['1.jpg', '2.jpg', '10.jpg'], afterFirstUse: 1, afterSecondUse: 1 });
  });
});
