// Photos by web address that need a login, in the editor (issue 35): Import Table Rows as Spots
// asks for the header's value once per host with a password box, keeps it in VS Code's secret
// storage, sends it to that host only (a photo server on loopback records what it got), and
// asks no more on the next run; a login the host refuses fails the row and is dropped from the
// secret storage, so the run after asks again.
import * as assert from 'assert';
import * as fs from 'fs';
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import * as vscode from 'vscode';
import type { RowsImportSummary } from '../../src/extension/tables/commands/importRows';
import { installScriptedUi } from './helpers/scriptedUi';
import { closeAllEditors, fixtureUri, useTestProfile, usedSecrets } from './helpers/testEnv';

const TOKEN = `Token it-photo-${Date.now().toString(36)}`;

function png(seed: string): Buffer {
  return Buffer.concat([fs.readFileSync(fixtureUri('upload', 'trail-marker.png').fsPath), Buffer.from(seed)]);
}

describe('rows of a table: photos behind a login, in the editor', function () {
  this.timeout(60_000);
  let server: Server;
  let host: string;
  const requests: Array<{ path: string; authorization?: string }> = [];
  let dir: string;
  let restore: (() => void) | undefined;

  before(async () => {
    usedSecrets.add(TOKEN); // the leak test (zz-noSecretLeak) looks for it in every log
    server = createServer((request, response) => {
      requests.push({ path: request.url ?? '/', authorization: request.headers.authorization });
      if (request.headers.authorization !== TOKEN) return void response.writeHead(401).end();
      response.writeHead(200, { 'content-type': 'image/png' }).end(png(request.url ?? ''));
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = fs.mkdtempSync(path.join(fixtureUri().fsPath, '.it-rows-login-'));
  });
  after(async () => {
    restore?.();
    await closeAllEditors();
    server.closeAllConnections();
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function writeTable(stamp: string, rows: number): vscode.Uri {
    const lines = ['id;Species;lat;lon;photo_URL'];
    for (let row = 1; row <= rows; row++) lines.push(`${stamp}-${row};Oak;47.07;15.44;http://${host}/private/${stamp}-${row}.png`);
    fs.writeFileSync(path.join(dir, 'kobo.csv'), lines.join('\n') + '\n');
    const mapping = {
      topic_id: 7,
      source_id: '{id}',
      latitude: 'lat',
      longitude: 'lon',
      media: { fld_7_3: { columns: ['photo_URL'], headers: { Authorization: { env: 'KOBO_TOKEN', host } } } },
    };
    fs.writeFileSync(path.join(dir, 'kobo.mapping.json'), JSON.stringify(mapping, null, 2));
    return vscode.Uri.file(path.join(dir, 'kobo.csv'));
  }

  it('asks once per host, keeps the value in secret storage, sends it to that host only; a refused login is dropped and asked again', async () => {
    const { services, sandbox } = await useTestProfile();
    const key = `spotImport.photoLogin:${host}:authorization`;
    await services.context.secrets.delete(key);
    const stamp = `it-login-${Date.now().toString(36)}`;
    const table = writeTable(stamp, 2);

    const first = await installScriptedUi([
      { kind: 'input', match: `Login for the photos on ${host}`, answer: TOKEN, expectPassword: true },
      { kind: 'info', match: /^Imported all 2 rows .*\(2 media uploaded, 0 already there\)/ },
    ]);
    restore = first.restore;
    const summary = await vscode.commands.executeCommand<RowsImportSummary>('spotImport.rows.import', table);
    first.done();
    assert.deepStrictEqual(
      summary.imported.map((entry) => entry.sourceId),
      [`${stamp}-1`, `${stamp}-2`],
    );
    // Two photos of one host, one question; each request carried the value.
    assert.deepStrictEqual(
      requests.map((request) => request.authorization),
      [TOKEN, TOKEN],
    );
    assert.strictEqual(await services.context.secrets.get(key), TOKEN, 'kept in secret storage');
    const spot = sandbox.spotBySourceId(`${stamp}-1`);
    assert.ok(spot);
    assert.deepStrictEqual(fs.readFileSync(sandbox.media(sandbox.gallery(Number(spot.attributes.fld_7_3))!.mediaIds[0])!.path), png(`/private/${stamp}-1.png`));

    // A new row: no question this time.
    writeTable(stamp, 3);
    requests.length = 0;
    const second = await installScriptedUi([{ kind: 'info', match: /^Imported all 3 rows .*\(1 media uploaded, 2 already there\)/ }]);
    restore = second.restore;
    await vscode.commands.executeCommand<RowsImportSummary>('spotImport.rows.import', table);
    second.done();
    assert.deepStrictEqual(requests, [{ path: `/private/${stamp}-3.png`, authorization: TOKEN }]);

    // The host now refuses what is stored: the row fails, and the login is dropped.
    await services.context.secrets.store(key, 'Token expired');
    writeTable(stamp, 4);
    const third = await installScriptedUi([{ kind: 'quickPick', match: /^Imported 3 of 4 rows.*1 failed$/, pick: undefined }]);
    restore = third.restore;
    const refused = await vscode.commands.executeCommand<RowsImportSummary>('spotImport.rows.import', table);
    third.done();
    assert.match(refused.failed[0]?.reason ?? '', /401|refused|login/i);
    assert.strictEqual(await services.context.secrets.get(key), undefined, 'the refused login was dropped');
  });
});
