// Putting media in order, inside a real extension host: Move Up / Move Down / Move to Top and
// drag and drop send POST …/galleries/{id}/media/order with the right weights (read on the wire by
// a loopback proxy in front of the test sandbox), the tree then shows the order the service has,
// and a refused reorder puts the old order back and says why.
import * as assert from 'assert';
import { createServer, request as forward, type IncomingMessage, type Server } from 'http';
import type { AddressInfo } from 'net';
import * as vscode from 'vscode';
import type { CommandServices } from '../../src/extension/commands/commandTable';
import type { Profile } from '../../src/extension/platform/domain';
import { MEDIA_DRAG_TYPE } from '../../src/extension/galleries/viewIds';
import { fixtureFile, galleryRow, PNG, rows, uniqueSourceId } from './galleriesSupport';
import { installScriptedUi, type ScriptedUi } from './helpers/scriptedUi';
import { addProfileAt, testSandbox } from './helpers/testEnv';

interface OrderRequest {
  galleryId: number;
  /** [media id, weight] in the order sent. */
  entries: Array<[number, number]>;
}

/** Passes everything to the test sandbox; records media order requests, and refuses them when told. */
class OrderProxy {
  readonly orders: OrderRequest[] = [];
  refuse = false;
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(target: URL): Promise<OrderProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new OrderProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request: IncomingMessage, response) => {
      const order = /\/galleries\/(\d+)\/media\/order$/.exec(request.url ?? '');
      if (!order) {
        const upstream = forward({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers }, (reply) => {
          response.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(response);
        });
        upstream.on('error', () => response.destroy());
        request.pipe(upstream);
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const form = new URLSearchParams(body.toString('utf8'));
        const ids = form.getAll('data[][id]').map(Number);
        const weights = form.getAll('data[][attributes][orderWeight]').map(Number);
        proxy.orders.push({ galleryId: Number(order[1]), entries: ids.map((id, index) => [id, weights[index]]) });
        if (proxy.refuse) {
          response.writeHead(422, { 'content-type': 'application/vnd.api+json' });
          response.end(JSON.stringify({ errors: [{ status: '422', title: 'Unprocessable Entity', detail: 'This gallery is locked for ordering.' }] }));
          return;
        }
        const upstream = forward({ host: target.hostname, port: target.port, path: request.url, method: 'POST', headers: request.headers }, (reply) => {
          response.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(response);
        });
        upstream.on('error', () => response.destroy());
        upstream.end(body);
      });
    });
    return proxy;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

describe('Galleries view: media order', function () {
  this.timeout(60_000);
  let proxy: OrderProxy;
  let remote: Awaited<ReturnType<typeof addProfileAt>>;
  let services: CommandServices;
  let profile: Profile;
  let ui: ScriptedUi;
  let done: () => void;
  let restore: () => void;

  before(async () => {
    proxy = await OrderProxy.start(new URL((await testSandbox()).baseUrl));
    remote = await addProfileAt(uniqueSourceId('IT order proxy'), proxy.baseUrl);
    ({ services, profile } = remote);
  });

  after(async () => {
    await remote.remove();
    await proxy.close();
  });

  beforeEach(async () => {
    ({ ui, done, restore } = await installScriptedUi());
    await services.profiles.setActive(profile.id);
    proxy.refuse = false;
    proxy.orders.length = 0;
  });

  afterEach(() => restore());

  /** A gallery with files a.png … (in that order), shown and expanded in the view. */
  async function galleryWith(names: string[]): Promise<{ galleryId: number; ids: number[] }> {
    const { client } = await services.clients.clientFor(profile.id);
    const attributes = { topic_id: 37, source_id: uniqueSourceId('order'), latitude: 47.07, longitude: 15.44, state: 2, fld_37_12: null };
    const galleryId = (await client.importSpot({ data: { type: 'spots', attributes } })).pendingGalleries[0].galleryId;
    for (const name of names) await client.uploadMedia(galleryId, fixtureFile(PNG).fsPath, { fileName: name });
    await services.galleries.add(profile.id, [{ galleryId, field: 'fld_37_12', pending: false }]);
    const ids = (await client.getGallery(galleryId)).media.map((media) => media.id);
    return { galleryId, ids };
  }

  async function mediaRows(galleryId: number) {
    return rows(services, (await galleryRow(services, galleryId)).node);
  }

  async function shownNames(galleryId: number): Promise<string[]> {
    return (await mediaRows(galleryId)).map((row) => row.label);
  }

  async function serviceNames(galleryId: number): Promise<string[]> {
    const { client } = await services.clients.clientFor(profile.id);
    return (await client.getGallery(galleryId)).media.map((media) => media.file);
  }

  it("Move Up, Move to Top and Move Down send the right weights, and the tree shows the service's order", async () => {
    const { galleryId, ids } = await galleryWith(['a.png', 'b.png', 'c.png']);
    const [a, b, c] = ids;
    assert.deepStrictEqual(await shownNames(galleryId), ['a.png', 'b.png', 'c.png']);

    // No weights known yet (the reply does not show them): every media item gets one.
    const third = (await mediaRows(galleryId))[2];
    assert.strictEqual(await vscode.commands.executeCommand('spotImport.media.moveUp', third.node), true);
    assert.deepStrictEqual(proxy.orders, [
      {
        galleryId,
        entries: [
          [a, 1],
          [c, 2],
          [b, 3],
        ],
      },
    ]);
    assert.deepStrictEqual(await shownNames(galleryId), ['a.png', 'c.png', 'b.png']);
    assert.deepStrictEqual(await serviceNames(galleryId), ['a.png', 'c.png', 'b.png']);

    // Now they are known: only the moved item's weight goes out.
    const last = (await mediaRows(galleryId))[2];
    await vscode.commands.executeCommand('spotImport.media.moveToTop', last.node);
    assert.deepStrictEqual(proxy.orders[1], { galleryId, entries: [[b, 0]] });
    assert.deepStrictEqual(await shownNames(galleryId), ['b.png', 'a.png', 'c.png']);

    const first = (await mediaRows(galleryId))[0];
    await vscode.commands.executeCommand('spotImport.media.moveDown', first.node);
    assert.deepStrictEqual(proxy.orders[2], { galleryId, entries: [[a, -1]] }, 'a goes above b: one weight');
    assert.deepStrictEqual(await shownNames(galleryId), ['a.png', 'b.png', 'c.png']);
    assert.deepStrictEqual(await serviceNames(galleryId), ['a.png', 'b.png', 'c.png']);

    // At the top already: nothing to send.
    assert.strictEqual(await vscode.commands.executeCommand('spotImport.media.moveUp', (await mediaRows(galleryId))[0].node), false);
    assert.strictEqual(proxy.orders.length, 3);
    done();
  });

  it('Alt+Up / Alt+Down with a gallery row selected move nothing and show no error (the keys are for media rows)', async () => {
    const { galleryId } = await galleryWith(['a.png', 'b.png']);
    const row = await galleryRow(services, galleryId);
    await services.galleriesView.treeView.reveal(row.node, { select: true, focus: true });
    // No argument (a keybinding of one's own, without the arguments that name the focused row):
    // the view's selection. The keys with package.json's arguments: galleriesKeyboard.test.ts.
    assert.strictEqual(await vscode.commands.executeCommand('spotImport.media.moveUp'), false);
    assert.strictEqual(await vscode.commands.executeCommand('spotImport.media.moveDown'), false);
    assert.strictEqual(proxy.orders.length, 0);
    done(); // fails on any message shown
  });

  it('reorders by dragging a media row onto another one in the tree', async () => {
    const { galleryId, ids } = await galleryWith(['a.png', 'b.png', 'c.png', 'd.png']);
    const view = services.galleriesView;
    const drag = async (source: number, target: number | 'gallery') => {
      const media = await mediaRows(galleryId);
      const transfer = new vscode.DataTransfer();
      const token = new vscode.CancellationTokenSource().token;
      await view.dropController.handleDrag([media[source].node], transfer);
      assert.ok(transfer.get(MEDIA_DRAG_TYPE), 'a media row can be dragged');
      const onto = target === 'gallery' ? (await galleryRow(services, galleryId)).node : media[target].node;
      await view.dropController.handleDrop(onto, transfer, token);
    };
    await drag(0, 2); // a onto c: a takes c's place
    assert.deepStrictEqual(await shownNames(galleryId), ['b.png', 'c.png', 'a.png', 'd.png']);
    await drag(3, 'gallery'); // d onto the gallery row: first
    assert.deepStrictEqual(await shownNames(galleryId), ['d.png', 'b.png', 'c.png', 'a.png']);
    assert.deepStrictEqual(await serviceNames(galleryId), ['d.png', 'b.png', 'c.png', 'a.png']);
    assert.deepStrictEqual(proxy.orders[1].entries, [[ids[3], 0]], 'the second drag sent one weight');
    done();
  });

  it('puts the old order back when the service refuses, and says why', async () => {
    const { galleryId } = await galleryWith(['a.png', 'b.png', 'c.png']);
    assert.deepStrictEqual(await shownNames(galleryId), ['a.png', 'b.png', 'c.png']);
    proxy.refuse = true;
    ui.expect({ kind: 'error', match: /Ordering the media of gallery \d+ failed with HTTP 422: This gallery is locked for ordering/ });
    const result = await vscode.commands.executeCommand('spotImport.media.moveToTop', (await mediaRows(galleryId))[2].node);
    assert.strictEqual(result, undefined, 'the command failed (the wrapper reported it)');
    assert.strictEqual(proxy.orders.length, 1, 'the request went out once (a 422 is not retried)');
    assert.deepStrictEqual(await shownNames(galleryId), ['a.png', 'b.png', 'c.png'], 'the old order is back');
    assert.deepStrictEqual(await serviceNames(galleryId), ['a.png', 'b.png', 'c.png']);
    assert.strictEqual(services.galleriesView.reorderer.knownWeights(profile.id, galleryId), undefined, 'nothing is assumed about the weights');

    // A refused drag says why too (there is no command around a drop).
    ui.expect({ kind: 'error', match: /HTTP 422: This gallery is locked for ordering/ });
    const media = await mediaRows(galleryId);
    const transfer = new vscode.DataTransfer();
    await services.galleriesView.dropController.handleDrag([media[0].node], transfer);
    await services.galleriesView.dropController.handleDrop(media[1].node, transfer, new vscode.CancellationTokenSource().token);
    assert.deepStrictEqual(await shownNames(galleryId), ['a.png', 'b.png', 'c.png']);
    done();
  });
});
