// upload, gallery, token, sandbox, help and version, run as real child processes; output on a
// terminal (a pseudo-terminal from `script`) and off one.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { startSandbox } from '../../src/sandbox';
import { DEMO_CLIENT, type RunningSandbox } from '../../src/sandbox/types';
import { ServiceClient } from '../../src/core/api/serviceClient';
import { TokenSource, defaultTokenUrl } from '../../src/core/api/tokenSource';
import { CLI, ROOT, cleanEnv, ensureCliBuilt, jsonLines, runCli, scratch, spotText, startCli, sandboxEnv } from './helpers/cliProcess';
import { validateJsonLine } from './helpers/cliSchemas';
import { requestToken } from './helpers/sandboxHttp';

const execFileAsync = promisify(execFile);

describe('spot-import commands', function () {
  let sandbox: RunningSandbox;
  let folder: ReturnType<typeof scratch>;
  let env: Record<string, string>;
  let client: ServiceClient;
  before(async () => {
    ensureCliBuilt();
    sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
    env = sandboxEnv(sandbox.baseUrl);
    const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(sandbox.baseUrl), ...DEMO_CLIENT });
    client = new ServiceClient({ baseUrl: sandbox.baseUrl, tokens });
  });
  after(() => sandbox.close());
  beforeEach(() => (folder = scratch({ 'photos/01-start.jpg': 'jpeg bytes', 'photos/02-bridge.png': 'png bytes!' })));
  afterEach(() => folder.cleanup());

  async function pendingGallery(sourceId: string): Promise<number> {
    const result = await client.importSpot(JSON.parse(spotText(sourceId, { state: 2, fld_1_5: null })));
    return result.pendingGalleries[0].galleryId;
  }

  it('upload streams each file into the gallery, one after the other; gallery shows them as a table and as JSON', async () => {
    const galleryId = await pendingGallery('upload-1');
    const upload = await runCli(['upload', '--gallery', String(galleryId), 'photos/01-start.jpg', 'photos/02-bridge.png'], { cwd: folder.dir, env });
    assert.equal(upload.code, 0, upload.stderr);
    assert.match(
      upload.stdout,
      new RegExp(
        `^photos/01-start\\.jpg: uploaded to gallery ${galleryId} as media (\\d+) \\(image/jpeg, 10 B\\)\nphotos/02-bridge\\.png: uploaded to gallery ${galleryId} as media \\d+ \\(image/png, 10 B\\)\n$`,
      ),
    );
    assert.match(upload.stderr, new RegExp(`2 files uploaded to gallery ${galleryId}\\.\n$`));
    assert.deepEqual(sandbox.gallery(galleryId)?.mediaIds.length, 2);

    const table = await runCli(['gallery', String(galleryId)], { cwd: folder.dir, env });
    assert.equal(table.code, 0, table.stderr);
    assert.match(
      table.stdout,
      new RegExp(
        `^Gallery ${galleryId}: kind 1, state \\d, 2 media items\n {2}\\s*ID {2}FILE {11}TYPE\n {2}\\s*\\d+ {2}01-start\\.jpg {3}image/jpeg\n {2}\\s*\\d+ {2}02-bridge\\.png {2}image/png\n$`,
      ),
    );
    const json = await runCli(['gallery', String(galleryId), '--format', 'json'], { cwd: folder.dir, env });
    const [record] = jsonLines(json.stdout);
    assert.deepEqual(validateJsonLine(record), []);
    assert.deepEqual(
      (record.media as Array<{ file: string }>).map((m) => m.file),
      ['01-start.jpg', '02-bridge.png'],
    );
  });

  it('upload: JSON lines; a gallery that does not exist fails each file (exit 1); bad arguments exit 2 with nothing sent', async () => {
    const missing = await runCli(['upload', '--gallery', '999999', '--format', 'json', 'photos/01-start.jpg'], { cwd: folder.dir, env });
    assert.equal(missing.code, 1, missing.stderr);
    const records = jsonLines(missing.stdout);
    for (const record of records) assert.deepEqual(validateJsonLine(record), [], JSON.stringify(record));
    assert.deepEqual(records[0], {
      type: 'upload',
      file: 'photos/01-start.jpg',
      status: 'failed',
      reason: records[0].reason,
      galleryId: 999999,
      fileName: '01-start.jpg',
      mimeType: 'image/jpeg',
      bytes: 10,
    });
    assert.match(String(records[0].reason), /404/);
    const uploadsBefore = sandbox.counters.uploads;
    const cases: Array<[string[], RegExp]> = [
      [
        ['upload', '--gallery', 'abc', 'photos/01-start.jpg'],
        /option '--gallery <id>' argument 'abc' is invalid\. A gallery id must be a whole number of at least 1, not "abc"\./,
      ],
      [
        ['upload', '--gallery', '1', 'photos/01-start.jpg', 'photos/nope.jpg'],
        /^spot-import: "photos\/nope\.jpg" does not exist\.\nspot-import: Nothing was uploaded\.\n$/,
      ],
      [['upload', '--gallery', '1', 'photos'], /"photos" is not a file/],
      [['upload', 'photos/01-start.jpg'], /required option '--gallery <id>' not specified/],
      [['gallery', '-3'], /unknown option '-3'|is invalid/],
      [['gallery', '12x'], /A gallery id must be a whole number of at least 1, not "12x"/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, { cwd: folder.dir, env });
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
    }
    assert.equal(sandbox.counters.uploads, uploadsBefore);
  });

  it('upload checks every file as import checks media before a byte is sent: an empty file or a type not accepted ends it (exit 2), nothing uploaded', async () => {
    const galleryId = await pendingGallery('upload-checked');
    folder.write('photos/empty.jpg', '');
    folder.write('notes.txt', 'not a picture');
    folder.write('spot-import.json', JSON.stringify({ media: { acceptedTypes: ['image/png'] } }));
    const uploadsBefore = sandbox.counters.uploads;
    const result = await runCli(['upload', '--gallery', String(galleryId), 'photos/02-bridge.png', 'photos/empty.jpg', 'notes.txt', 'photos/01-start.jpg'], {
      cwd: folder.dir,
      env,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(
      result.stderr,
      [
        'spot-import: "photos/empty.jpg": type image/jpeg is not accepted (accepted: image/png).',
        'spot-import: "notes.txt": type text/plain is not accepted (accepted: image/png).',
        'spot-import: "photos/01-start.jpg": type image/jpeg is not accepted (accepted: image/png).',
        'spot-import: Nothing was uploaded.',
        '',
      ].join('\n'),
    );
    folder.write('spot-import.json', '{}');
    const empty = await runCli(['upload', '--gallery', String(galleryId), 'photos/empty.jpg'], { cwd: folder.dir, env });
    assert.equal(empty.code, 2, empty.stderr);
    assert.match(empty.stderr, /^spot-import: "photos\/empty\.jpg": the file is empty\.\nspot-import: Nothing was uploaded\.\n$/);
    assert.equal(sandbox.counters.uploads, uploadsBefore, 'nothing was sent');
  });

  it('upload: Ctrl-C lets the file in flight finish, sends no other, exit 130', async () => {
    const galleryId = await pendingGallery('upload-interrupted');
    for (let i = 3; i <= 6; i++) folder.write(`photos/0${i}.jpg`, `jpeg ${i}`);
    const files = ['01-start.jpg', '02-bridge.png', '03.jpg', '04.jpg', '05.jpg', '06.jpg'].map((name) => `photos/${name}`);
    sandbox.setFaults({ latencyMs: 300 });
    try {
      const run = startCli(['upload', '--gallery', String(galleryId), ...files], { cwd: folder.dir, env });
      while (!run.stdout().includes('\n')) await new Promise((resolve) => setTimeout(resolve, 10));
      run.child.kill('SIGINT');
      const result = await run.done;
      assert.equal(result.code, 130, result.stderr);
      const uploaded = result.stdout.split('\n').filter((line) => /: uploaded to gallery/.test(line)).length;
      assert.ok(uploaded >= 2 && uploaded < files.length, `${uploaded} uploaded`);
      assert.equal(sandbox.gallery(galleryId)?.mediaIds.length, uploaded, 'exactly the files reported as uploaded arrived');
      assert.equal(result.stdout.split('\n').filter((line) => /: not attempted: the run was interrupted first$/.test(line)).length, files.length - uploaded);
      assert.match(
        result.stderr,
        new RegExp(`Interrupted: ${uploaded} of ${files.length} files uploaded to gallery ${galleryId}; the other ${files.length - uploaded} were not`),
      );
    } finally {
      sandbox.setFaults({});
    }
  });

  it('--help and --version for the tool and every command; help goes to stdout with exit 0', async () => {
    const version = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')).version;
    assert.equal((await runCli(['--version'])).stdout, `${version}\n`);
    const top = await runCli(['--help']);
    assert.equal(top.code, 0);
    for (const command of ['validate', 'import', 'upload', 'gallery', 'token', 'sandbox']) assert.match(top.stdout, new RegExp(`\\n {2}${command} `));
    assert.match(top.stdout, /Exit codes: 0 all good; 1 some documents invalid/);
    const expectations: Record<string, RegExp> = {
      validate: /--format <format>/,
      import: /--no-media[\s\S]*--no-write-back[\s\S]*--keep-in-progress[\s\S]*--concurrency <n>[\s\S]*--dry-run/,
      upload: /--gallery <id>/,
      gallery: /Usage: spot-import gallery \[options\] <id>/,
      token: /never the token/,
      sandbox: /Usage: spot-import sandbox \[options\][\s\S]*--latency-ms MS/,
    };
    for (const [command, pattern] of Object.entries(expectations)) {
      const help = await runCli([command, '--help']);
      assert.equal(help.code, 0, command);
      assert.match(help.stdout, pattern, command);
    }
  });

  it('sandbox: the sandbox flags pass through; one ready line; Ctrl-C stops it with exit 0', async () => {
    const run = startCli(['sandbox', '--port', '0', '--client', 'topic_9_api:pw', '--latency-ms', '1'], { cwd: folder.dir });
    while (!run.stdout().includes('\n')) await new Promise((resolve) => setTimeout(resolve, 20));
    const match = /^Sandbox listening on (http:\/\/127\.0\.0\.1:\d+) \(client topic_9_api\)\n$/.exec(run.stdout());
    assert.ok(match, run.stdout());
    assert.equal((await requestToken(match[1], { clientId: 'topic_9_api', clientSecret: 'pw' })).status, 200);
    run.child.kill('SIGINT');
    const result = await run.done;
    assert.equal(result.code, 0, result.stderr);
    const bad = await runCli(['sandbox', '--port', 'eighty'], { cwd: folder.dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^spot-import: sandbox: --port must be an integer from 0 to 65535, not "eighty" \(see spot-import sandbox --help\)\n$/);
  });

  it('on a terminal: a progress bar on stderr and colour, unless NO_COLOR; off a terminal: results only', async function () {
    // util-linux `script` gives the CLI a pseudo-terminal (the machines this project runs on have it).
    if (
      !(await execFileAsync('script', ['--version']).then(
        () => true,
        () => false,
      ))
    )
      this.skip();
    folder.write('spots/a.spot.json', spotText('tty-a'));
    folder.write('spots/b.spot.json', spotText('tty-b'));
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} import spots --concurrency 1`;
    // Asynchronously: the sandbox answering the CLI runs in this process.
    const onTerminal = async (extra: Record<string, string>) => {
      const { stdout } = await execFileAsync('script', ['-qec', command, '/dev/null'], {
        cwd: folder.dir,
        env: cleanEnv({ ...env, TERM: 'xterm', ...extra }),
        encoding: 'utf8',
        timeout: 15_000,
      });
      return stdout;
    };
    const coloured = await onTerminal({});
    assert.match(coloured, /[█░]+ \d\/2 documents \| [\d.]+ (B|KiB) \| [\d.]+ documents\/s/, 'the bar with counts, bytes and rate');
    assert.match(coloured, /spots\/a\.spot\.json: \u001b\[32mimported\u001b\[39m "tty-a"/);
    const plain = await onTerminal({ NO_COLOR: '1' });
    assert.doesNotMatch(plain, /\u001b\[3\dm/, 'no colour with NO_COLOR');
    assert.match(plain, /spots\/a\.spot\.json: already imported "tty-a"/, 'the journal: the second run sends nothing');

    const dumb = await onTerminal({ TERM: 'dumb' });
    assert.match(dumb, /^2\/2 documents \| [\d.]+ (B|KiB) \| [\d.]+ documents\/s\r?$/m, 'plain progress lines where the terminal cannot redraw');
    assert.doesNotMatch(dumb, /█|\u001b\[3\dm/);

    const piped = await runCli(['import', 'spots'], { cwd: folder.dir, env });
    assert.equal(piped.code, 0);
    assert.doesNotMatch(piped.stdout + piped.stderr, /\u001b|█|documents\/s/, 'no bar, no colour, no escape codes off a terminal');
    assert.equal(piped.stderr, '2 of 2 documents imported.\n');
  });

  it("on a terminal, result lines are not written onto the progress bar's line", async function () {
    this.timeout(30_000);
    // Many documents, each with a problem: results on stdout while the bar is drawn on stderr,
    // both on one terminal (a pseudo-terminal made by script(1)).
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`docs/d${i}.spot.json`] = spotText(`bar-${i}`, { latitude: 'north' });
    folder = scratch(files);
    const { stdout } = await promisify(execFile)(
      'script',
      ['-q', '-e', '-c', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} validate docs`, '/dev/null'],
      {
        cwd: folder.dir,
        env: { ...cleanEnv(), TERM: 'xterm', COLUMNS: '200' },
      },
    ).catch((error: { stdout: string }) => error);
    assert.match(stdout, /documents\/s/, 'the bar was drawn');
    // Glued: the bar's text, then a result, with no carriage return or line erase in between.
    const glued = stdout.split('\n').filter((line) => /documents\/s(?:(?!\u001b\[2K|\r).)*d\d+\.spot\.json/.test(line));
    assert.deepEqual(glued, [], 'a result line starts where the bar was');
  });

  it("a reader that closes stdout early (| head -1) is not an error, and the exit code is still the run's", async () => {
    // Enough documents that results are still being written when the reader has gone.
    for (let i = 0; i < 300; i++) folder.write(`many/${i}.spot.json`, spotText(`head-${i}`, { latitude: 100 }));
    for (const format of ['text', 'json']) {
      const child = startCli(['validate', 'many', '--format', format], { cwd: folder.dir });
      child.child.stdout!.once('data', () => child.child.stdout!.destroy());
      // Once every stream is closed, so stderr has been read to its end.
      const { code, stderr } = await child.done;
      assert.equal(code, 1, `${format}: every document is invalid, so exit 1 as with the whole output read; stderr: ${stderr}`);
      assert.doesNotMatch(stderr, /EPIPE|Error:/, format);
      assert.match(stderr, /300 spot documents checked: 300 invalid, 0 valid\.\n$/, `${format}: the run finished and said so on stderr`);
    }
  });
});
