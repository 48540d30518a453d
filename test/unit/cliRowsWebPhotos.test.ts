// spot-import on a table whose photos are web addresses, as iNaturalist's export gives them
// (image_url) and KoBoToolbox's *_URL columns behind a login: each photo is fetched once into
// .spot-import/downloads/, uploaded in cell order, and a second run fetches and sends nothing. The
// login's value comes from the environment, named by the mapping; without it set, nothing runs. A
// photo that cannot be fetched fails its row, with the address, and the other rows go on. Over
// https, the server's certificate is checked as every https request of the project checks it.
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { runCli, scratch, useCliSandbox } from './helpers/cliProcess';
import { makeTestCertificates } from '../integration/helpers/testCertificates';

const TOPIC = { topic_id: 31, name: 'Funde', fields: { fld_31_1: { label: 'Art', type: 'text' }, fld_31_2: { label: 'Fotos', type: 'gallery' } } };

/** A photo over the size a check holds in memory (1 MiB): such files of one size are compared by a sample of their ends first. */
const LARGE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3 * 1024 * 1024, 7)]);

/** Distinct JPEG bytes per photo. */
const photo = (label: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`${label} `.repeat(200))]);

describe('spot-import rows: photos given by web address', function () {
  this.timeout(60_000);
  const service = useCliSandbox();
  let server: Server;
  let base: string;
  const requests: Array<{ path: string; authorization?: string }> = [];

  before(async () => {
    server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      requests.push({ path, authorization: request.headers.authorization });
      if (path.startsWith('/private/') && request.headers.authorization !== 'Token kobo-secret') return void response.writeHead(401).end();
      if (path.endsWith('/gone.jpg')) return void response.writeHead(404).end();
      if (path === '/large/same.jpg') return void response.writeHead(200, { 'content-type': 'image/jpeg' }).end(LARGE);
      // iNaturalist's addresses name the size, not the file: "…/photos/123/medium?1700000000".
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo(path));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => (requests.length = 0));

  it('fetches each photo once, uploads them in cell order, a second run fetches and sends nothing; a photo that cannot be fetched fails its row', async () => {
    const project = scratch({ 'spot-topics/31.topic.json': JSON.stringify(TOPIC) });
    try {
      const rows = [
        ['1', 'Quercus robur', `${base}/photos/11/medium?1700000001;${base}/photos/12/medium?1700000002`],
        ['2', 'Tilia cordata', `${base}/photos/21/medium?1700000003`],
        ['3', 'Acer campestre', `${base}/photos/gone.jpg`],
      ];
      project.write(
        'observations.csv',
        ['id,scientific_name,latitude,longitude,image_url', ...rows.map(([id, name, urls]) => `${id},${name},48.2,16.3,"${urls}"`)].join('\n') + '\n',
      );
      project.write(
        'observations.mapping.json',
        JSON.stringify({
          topic_id: 31,
          source_id: 'inat-{id}',
          latitude: 'latitude',
          longitude: 'longitude',
          fields: { fld_31_1: 'scientific_name' },
          media: { fld_31_2: { columns: ['image_url'] } },
        }),
      );
      // validate sends nothing and fetches nothing.
      const checked = await runCli(['validate', 'observations.csv'], { cwd: project.dir });
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
      assert.equal(requests.length, 0, 'validate fetches nothing');

      const env = await service.start();
      const sandbox = service.sandbox();
      const first = await runCli(['import', 'observations.csv'], { cwd: project.dir, env });
      assert.equal(first.code, 1, first.stdout + first.stderr);
      assert.match(
        first.stdout,
        /observations\.csv:4:\d+: not imported: http:\/\/127\.0\.0\.1:\d+\/photos\/gone\.jpg could not be fetched: the server answered 404/,
      );
      const stored = (sourceId: string) => {
        const spot = sandbox.spotBySourceId(sourceId);
        assert.ok(spot, `${sourceId}: ${first.stdout}`);
        return sandbox.gallery(spot.attributes.fld_31_2 as number)!.mediaIds.map((id) => {
          const media = sandbox.media(id)!;
          return [media.file, readFileSync(media.path).toString('latin1')];
        });
      };
      const one = stored('inat-1');
      assert.deepEqual(
        one.map(([, bytes]) => bytes),
        [photo('/photos/11/medium').toString('latin1'), photo('/photos/12/medium').toString('latin1')],
      );
      assert.match(String(one[0][0]), /^medium\.jpe?g$|\.jpe?g$/, 'a name its type gives an extension');
      assert.equal(stored('inat-2').length, 1);
      assert.equal(sandbox.counters.uploads, 3);
      assert.equal(requests.length, 4, 'each photo fetched once');
      assert.equal(readdirSync(project.path('.spot-import/downloads')).filter((name) => !name.endsWith('.json')).length, 3);

      const counts = { ...sandbox.counters };
      requests.length = 0;
      await runCli(['import', 'observations.csv'], { cwd: project.dir, env });
      assert.equal(sandbox.counters.uploads, counts.uploads, 'the second run sends no photo');
      assert.deepEqual(
        requests.map((request) => request.path),
        ['/photos/gone.jpg'],
        'the second run fetches only what the first could not have',
      );
    } finally {
      project.cleanup();
    }
  });

  it('a photo in the folder and the same photo by web address, both large: found to be one content, the row not imported', async () => {
    const project = scratch({ 'spot-topics/31.topic.json': JSON.stringify(TOPIC) });
    try {
      project.write('photos/same.jpg', LARGE);
      project.write('twins.csv', `id,lat,lon,photos\n1,48.2,16.3,"same.jpg;${base}/large/same.jpg"\n`);
      project.write(
        'twins.mapping.json',
        JSON.stringify({
          topic_id: 31,
          source_id: 'twin-{id}',
          latitude: 'lat',
          longitude: 'lon',
          media: { fld_31_2: { columns: ['photos'], folder: 'photos' } },
        }),
      );
      const env = await service.start();
      const run = await runCli(['import', 'twins.csv'], { cwd: project.dir, env });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stdout, /has the same content as/);
      assert.equal(service.sandbox().counters.uploads, 0, 'nothing uploaded twice');
    } finally {
      project.cleanup();
    }
  });

  it('a login header comes from the environment variable the mapping names, only with --photo-login naming it, and only to its host; unset, nothing runs', async () => {
    const project = scratch({ 'spot-topics/31.topic.json': JSON.stringify(TOPIC) });
    try {
      project.write('kobo.csv', `_uuid,Art,lat,lon,photo_URL\nu-1,Linde,48.2,16.3,${base}/private/u-1/photo.jpg\n`);
      project.write(
        'kobo.mapping.json',
        JSON.stringify({
          topic_id: 31,
          source_id: 'kobo-{_uuid}',
          latitude: 'lat',
          longitude: 'lon',
          fields: { fld_31_1: 'Art' },
          media: { fld_31_2: { columns: ['photo_URL'], headers: { Authorization: { env: 'KOBO_TOKEN', host: new URL(base).host } } } },
        }),
      );
      const env = await service.start();
      // A mapping from elsewhere must not pick which secret goes where: the person names it.
      for (const command of [
        ['import', 'kobo.csv'],
        ['convert', 'kobo.csv', '--out', 'spots'],
      ]) {
        const unasked = await runCli(command, { cwd: project.dir, env: { ...env, KOBO_TOKEN: 'Token kobo-secret' } });
        assert.equal(unasked.code, 2, unasked.stdout + unasked.stderr);
        assert.equal(
          unasked.stderr.trim().split('\n').at(-1),
          `spot-import: The mapping's media "fld_31_2" would send the environment variable KOBO_TOKEN to ${new URL(base).host} as its Authorization header. A mapping may come from anyone: if that is what you want, add --photo-login KOBO_TOKEN@${new URL(base).host}, then run again.`,
        );
      }
      assert.equal(requests.length, 0);
      // Approved for another host: still refused.
      const elsewhere = await runCli(['import', 'kobo.csv', '--photo-login', 'KOBO_TOKEN@kf.kobotoolbox.org'], {
        cwd: project.dir,
        env: { ...env, KOBO_TOKEN: 'Token kobo-secret' },
      });
      assert.equal(elsewhere.code, 2, elsewhere.stdout + elsewhere.stderr);
      const login = `KOBO_TOKEN@${new URL(base).host}`;
      const unset = await runCli(['import', 'kobo.csv', '--photo-login', login], { cwd: project.dir, env: { ...env, KOBO_TOKEN: undefined } });
      assert.notEqual(unset.code, 0);
      assert.match(unset.stderr, /sends the header Authorization with the value of the environment variable KOBO_TOKEN, which is not set/);
      assert.equal(requests.length, 0);

      const run = await runCli(['import', 'kobo.csv', '--photo-login', login], { cwd: project.dir, env: { ...env, KOBO_TOKEN: 'Token kobo-secret' } });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(requests, [{ path: '/private/u-1/photo.jpg', authorization: 'Token kobo-secret' }]);
      assert.ok(!run.stdout.includes('kobo-secret') && !run.stderr.includes('kobo-secret'));
    } finally {
      project.cleanup();
    }
  });

  it('fetches over https from a server whose certificate NODE_EXTRA_CA_CERTS trusts, and refuses one it does not', async () => {
    const certificates = makeTestCertificates();
    const secure = createHttpsServer({ key: certificates.key, cert: certificates.cert }, (request, response) => {
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo(`tls ${request.url}`));
    });
    secure.listen(0, '127.0.0.1');
    await once(secure, 'listening');
    const project = scratch({ 'spot-topics/31.topic.json': JSON.stringify(TOPIC) });
    try {
      const address = `https://127.0.0.1:${(secure.address() as AddressInfo).port}/obs/1.jpg`;
      project.write('tls.csv', `id,lat,lon,image_url\n1,48.2,16.3,${address}\n`);
      project.write(
        'tls.mapping.json',
        JSON.stringify({ topic_id: 31, source_id: 'tls-{id}', latitude: 'lat', longitude: 'lon', media: { fld_31_2: { columns: ['image_url'] } } }),
      );
      const env = await service.start();
      const untrusted = await runCli(['import', 'tls.csv'], { cwd: project.dir, env });
      assert.equal(untrusted.code, 1, untrusted.stdout + untrusted.stderr);
      assert.match(untrusted.stdout, /obs\/1\.jpg could not be fetched: .*(certificate|CERT)/i);
      const trusted = await runCli(['import', 'tls.csv'], { cwd: project.dir, env: { ...env, NODE_EXTRA_CA_CERTS: certificates.caFile } });
      assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
      const spot = service.sandbox().spotBySourceId('tls-1');
      assert.ok(spot, trusted.stdout);
      const [media] = service.sandbox().gallery(spot.attributes.fld_31_2 as number)!.mediaIds;
      assert.deepEqual(readFileSync(service.sandbox().media(media)!.path), photo('tls /obs/1.jpg'));
    } finally {
      project.cleanup();
      secure.closeAllConnections();
      secure.close();
      certificates.cleanup();
    }
  });
});
