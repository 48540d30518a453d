// The extension's main job from a terminal: start the local sandbox, import the example spot
// documents through the core's import engine, upload the example images into the galleries that
// come back, and read those galleries again. `npm run demo` runs it; nothing here knows VS Code.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox } from '../sandbox';
import { DEMO_CLIENT } from '../sandbox/types';
import {
  JournalAccounts,
  ServiceClient,
  TokenSource,
  createDispatcher,
  defaultTokenUrl,
  journalAccountOf,
  proxyOptionsFromEnv,
  runImport,
  spotDocumentFiles,
  uploadFilesToGallery,
} from '../core';

async function main(): Promise<number> {
  const examples = resolve(process.argv[2] ?? join(__dirname, '..', 'examples'));
  const spotFiles = readdirSync(join(examples, 'spots'))
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(examples, 'spots', name));
  const images = readdirSync(join(examples, 'images')).map((name) => join(examples, 'images', name));

  const sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
  console.log(`Sandbox running at ${sandbox.baseUrl}`);
  const dispatcher = createDispatcher(proxyOptionsFromEnv());
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(sandbox.baseUrl), ...DEMO_CLIENT, dispatcher });
  const client = new ServiceClient({ baseUrl: sandbox.baseUrl, tokens, dispatcher });
  // A journal of the demo's own: the examples folder is left as it is.
  const journalDir = mkdtempSync(join(tmpdir(), 'spot-import-demo-'));
  const journalAccounts = new JournalAccounts();
  try {
    // The documents as they are (their pending galleries stay pending): the images come below.
    const { spots, stop } = await runImport(spotDocumentFiles(spotFiles), {
      client,
      journal: { accounts: journalAccounts, dir: journalDir, account: journalAccountOf(client.apiRoot, DEMO_CLIENT.clientId) },
      media: false,
      writeBack: false,
      onProgress: (event) => {
        if (event.kind === 'spotDone')
          console.log(`[${event.done}/${event.total}] ${event.outcome.status === 'done' ? 'imported' : 'skipped '} ${relative(examples, event.outcome.label)}`);
      },
    });
    if (stop) console.log(`Stopped early: ${stop.error.message}`);
    let imageIndex = 0;
    for (const spot of spots) {
      if (spot.status !== 'done') {
        console.log(`  ✗ ${relative(examples, spot.label)}: ${spot.reason}`);
        continue;
      }
      const pending = spot.galleries.filter((gallery) => gallery.galleryId !== undefined);
      console.log(
        `  ✓ ${spot.sourceId} is spot ${spot.spotId}${pending.length ? `, pending galleries: ${pending.map((g) => `${g.field}=${g.galleryId}`).join(', ')}` : ''}`,
      );
      for (const gallery of pending) {
        const image = images[imageIndex++ % images.length];
        const { files } = await uploadFilesToGallery({ client, galleryId: gallery.galleryId!, files: [{ path: image }] });
        const read = await client.getGallery(gallery.galleryId!);
        console.log(
          `    ${files[0].status === 'arrived' ? 'uploaded' : `not uploaded (${files[0].failure?.error.message})`} ${relative(examples, image)} → gallery ${gallery.galleryId} now holds: ${read.media.map((m) => m.file).join(', ')}`,
        );
      }
    }
    const failed = spots.filter((spot) => spot.status !== 'done').length;
    console.log(`${spots.length - failed} imported, ${failed} skipped (the skipped one is meant to show validation).`);
    return 0;
  } finally {
    journalAccounts.dispose();
    rmSync(journalDir, { recursive: true, force: true });
    await dispatcher.close();
    await sandbox.close();
  }
}

function relative(root: string, path: string): string {
  return path.startsWith(root) ? path.slice(root.length + 1) : path;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`Failed: ${error.message}`);
    process.exit(1);
  },
);
