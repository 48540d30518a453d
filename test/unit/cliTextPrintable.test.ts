// The text output is read in a terminal and by editors' problem matchers: a control character in a
// member name, a file name or a topic's label (which messages quote) must not reach it. An escape
// sequence could clear the screen or recolour it, a line break forge a `file:line:col:` line.
import * as assert from 'node:assert/strict';
import { ensureCliBuilt, runCli, scratch } from './helpers/cliProcess';

describe('spot-import text output: control characters shown, not obeyed', function () {
  this.timeout(30_000);
  let folder: ReturnType<typeof scratch>;
  before(() => ensureCliBuilt());
  afterEach(() => folder?.cleanup());

  it("a topic's label and a member name with an escape sequence and a line break in them", async () => {
    const topic = { topic_id: 1, name: 'Trees', fields: { fld_1_2: { label: 'Spe\u001b[31mcies\nspots/esc.spot.json:1:1: forged', type: 'number' } } };
    const attributes = { topic_id: 1, source_id: 'esc', latitude: 48.2, longitude: 16.37, fld_1_2: 'oak', 'stat\u001b[2J': 1 };
    folder = scratch({
      'spot-topics/1.topic.json': JSON.stringify(topic),
      'spots/esc.spot.json': JSON.stringify({ data: { type: 'spots', attributes } }, null, 2),
    });
    const result = await runCli(['validate', 'spots'], { cwd: folder.dir });
    const lines = result.stdout.split('\n').filter(Boolean);
    assert.ok(lines.length > 0, result.stderr);
    for (const line of lines) {
      assert.doesNotMatch(line, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, JSON.stringify(line));
      assert.match(line, /^spots\/esc\.spot\.json:\d+:\d+: /, JSON.stringify(line));
    }
    assert.match(result.stdout, /stat\ufffd\[2J/);
    assert.match(result.stdout, /Spe\ufffd\[31mcies\ufffdspots/);
  });

  it("a table's header and file name with escape sequences: the notes, the proposal and the summary on stderr", async () => {
    const name = 'e\u001b[31mvil.csv';
    folder = scratch({ [name]: 'id,la\u001b[2Jt,lon\n1,"47,5",16.3\n' });
    const proposed = await runCli(['mapping', name], { cwd: folder.dir });
    assert.equal(proposed.code, 0, proposed.stderr);
    const validated = await runCli(['validate', name], { cwd: folder.dir });
    for (const output of [proposed.stderr, proposed.stdout, validated.stderr, validated.stdout]) {
      assert.doesNotMatch(output, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, JSON.stringify(output));
    }
    assert.match(proposed.stderr, /la\ufffd\[2Jt/);
    assert.match(validated.stderr, /The rows of e\ufffd\[31mvil\.csv were not checked/);
  });
});
