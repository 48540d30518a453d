// An address a person wrote (a flag, a table's cell) may carry a login (user:password@) and a
// token in its query; a message that shows the address, parsed or not, shows neither. Run as the
// bundled command line, as a user would see it.
import * as assert from 'node:assert/strict';
import { runCli, scratch } from './helpers/cliProcess';
import { redactUrlText } from '../../src/core/api/redact';

describe('addresses in messages never show their login', function () {
  this.timeout(30_000);

  it('redactUrlText masks the login and the tokens of any address text, parsed or not', () => {
    assert.equal(redactUrlText('https://alice:S3cret@host.example:99999/a?token=tok123&x=1'), 'https://***@host.example:99999/a?token=***&x=1');
    assert.equal(redactUrlText('https://alice:p@ss@host.example/a@b'), 'https://***@host.example/a@b');
    assert.equal(redactUrlText('https:/alice:S3cret@host.example:99999/'), 'https:/***@host.example:99999/');
    assert.equal(redactUrlText('https:\\\\alice:S3cret@host.example:99999/'), 'https:\\\\***@host.example:99999/');
    assert.equal(redactUrlText('//alice:S3cret@host.example/'), '//***@host.example/');
    assert.equal(redactUrlText('https://host.example:99999/a@b'), 'https://host.example:99999/a@b');
    assert.equal(redactUrlText('not a url'), 'not a url');
    // Mistyped as people mistype them: the addresses that do not parse are the ones shown as written.
    assert.equal(redactUrlText('https//alice:pw@host.example/'), 'https//***@host.example/');
    assert.equal(redactUrlText('https:://alice:pw@host.example:99999/'), 'https:://***@host.example:99999/');
    assert.equal(redactUrlText(' https://alice:pw@host.example:99999/'), ' https://***@host.example:99999/');
    assert.equal(redactUrlText('alice:pw@host.example'), '***@host.example');
  });

  it('token with a base URL that is no URL names it without its password', async () => {
    const result = await runCli(['token', '--base-url', 'https://alice:S3cretPW@spots.example.org:99999/'], {
      env: { SPOT_CLIENT_ID: 'client', SPOT_CLIENT_SECRET: 'secret-value' },
    });
    assert.equal(result.code, 2, result.stderr);
    assert.ok(!/S3cretPW|tok123/.test(result.stdout + result.stderr), result.stderr);
    assert.match(result.stderr, /URL "https:\/\/\*\*\*@spots\.example\.org:99999\/[^"]*" is not a valid URL\./);
  });

  it('validate names a photo address that is no URL without its password or query', async () => {
    const folder = scratch({
      'trees.csv': 'id,lat,lon,photo_URL\n1,48.2,16.3,https://alice:Pa55word@kf.example.org:99999/att/1.jpg?access=tok123\n',
      'trees.mapping.json': JSON.stringify({
        topic_id: 1,
        source_id: 't-{id}',
        latitude: 'lat',
        longitude: 'lon',
        media: { fld_1_1: { columns: ['photo_URL'] } },
      }),
    });
    try {
      const result = await runCli(['validate', 'trees.csv'], { cwd: folder.dir });
      const output = result.stdout + result.stderr;
      assert.ok(!/alice|Pa55word|tok123/.test(output), output);
      assert.match(output, /https:\/\/\*\*\*@kf\.example\.org:99999\/att\/1\.jpg/);
    } finally {
      folder.cleanup();
    }
  });
});
