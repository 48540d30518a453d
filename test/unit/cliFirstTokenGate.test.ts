// The command line's first-token gate (src/cli/import/firstTokenGate.ts) over a token source that
// answers as a test says: outcomes before the first token pass, those while it is asked for wait;
// a granted token lets them through; a first token that cannot be had (a 503, not only refused
// credentials) stops the run through the gate's signal and drops what waited and what follows;
// an interruption while asking lets what waited through and stops nothing. The whole command is
// tested as the bundled program in cliRowsRealExports.test.ts; the 503 that later recovers is
// here, where the token source's answers can be scripted.
import * as assert from 'node:assert/strict';
import { CancelledError, ServiceError, TokenSource } from '../../src/core';
import { FirstTokenGate } from '../../src/cli/import/firstTokenGate';
import type { Outcome } from '../../src/cli/output/records';

function outcome(file: string): Outcome {
  return { file, status: 'alreadyImported', ok: true, findings: [] };
}

/** A token source whose getToken answers are the test's: one promise per call, settled by hand. */
function scriptedTokens(): { tokens: TokenSource; answers: Array<{ resolve: (token: unknown) => void; reject: (error: unknown) => void }> } {
  const answers: Array<{ resolve: (token: unknown) => void; reject: (error: unknown) => void }> = [];
  const tokens = new TokenSource({ tokenUrl: 'http://127.0.0.1:9/token', clientId: 'id', clientSecret: 'secret' });
  tokens.getToken = () => new Promise((resolve, reject) => answers.push({ resolve: resolve as (token: unknown) => void, reject }));
  return { tokens, answers };
}

describe('spot-import import: the first token', () => {
  it('a 503 for the first token stops the run and drops what waited and what follows, even when a later token would come', async () => {
    const printed: string[] = [];
    const gate = new FirstTokenGate(
      (o) => printed.push(o.file),
      (line) => printed.push(`note: ${line}`),
    );
    const { tokens, answers } = scriptedTokens();
    const client = gate.over(tokens);
    gate.outcome(outcome('row 1: already imported before any request'));
    const first = client.getToken();
    gate.outcome(outcome('row 2: settled while the token was asked for'));
    answers[0].reject(new ServiceError('http', 'The token request failed with HTTP 503.', { status: 503 }));
    await assert.rejects(first, /503/);
    assert.equal(gate.signal.aborted, true, 'the run is stopped');
    assert.match(String(gate.refusal), /503/);
    // The service recovers: a later request gets its token, but the run has stopped; nothing it reports is said.
    const later = client.getToken();
    answers[1].resolve({ value: 't', expiresAt: Date.now() + 60_000 });
    await later;
    gate.outcome(outcome('row 3: after the refusal'));
    gate.note('rows after the last one reported were not attempted');
    assert.deepEqual(printed, ['row 1: already imported before any request']);
  });

  it('a granted first token lets what waited through, then everything as it comes', async () => {
    const printed: string[] = [];
    const gate = new FirstTokenGate(
      (o) => printed.push(o.file),
      () => undefined,
    );
    const { tokens, answers } = scriptedTokens();
    const first = gate.over(tokens).getToken();
    gate.outcome(outcome('a'));
    assert.deepEqual(printed, [], 'held while the token is asked for');
    answers[0].resolve({ value: 't', expiresAt: Date.now() + 60_000 });
    await first;
    gate.outcome(outcome('b'));
    assert.deepEqual(printed, ['a', 'b']);
    assert.equal(gate.signal.aborted, false);
  });

  it("an interruption while asking stops nothing of the gate's own and lets what waited through", async () => {
    const printed: string[] = [];
    const gate = new FirstTokenGate(
      (o) => printed.push(o.file),
      () => undefined,
    );
    const { tokens, answers } = scriptedTokens();
    const first = gate.over(tokens).getToken();
    gate.outcome(outcome('a'));
    answers[0].reject(new CancelledError());
    await assert.rejects(first);
    assert.equal(gate.signal.aborted, false);
    assert.equal(gate.refusal, undefined);
    assert.deepEqual(printed, ['a']);
  });
});
