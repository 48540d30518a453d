// The extension's main job from a terminal: start the local sandbox, import the example spot
// documents through the core, upload the example images into the galleries that come back, and
// read those galleries again. `npm run demo` runs it; nothing here knows VS Code.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startSandbox } from '../sandbox';
import { DEMO_CLIENT } from '../sandbox/types';
import { ServiceClient, TokenSource, bulkImport, createDispatcher, defaultTokenUrl, fileItems, proxyOptionsFromEnv } from '../core';

async function main(): Promise<number> {
  const examples = resolve(process.argv[2] ?? join(__dirname, '..', 'examples'));
  const spotFiles = readdirSync(join(examples, 'spots')).filter((name) => name.endsWith('.json')).map((name) => join(examples, 'spots', name));
  const images = readdirSync(join(examples, 'images')).map((name) => join(examples, 'images', name));

  const sandbox = await startSandbox({ port: 0, clients: [DEMO_CLIENT] });
  console.log(`Sandbox running at ${sandbox.baseUrl}`);
  const dispatcher = createDispatcher(proxyOptionsFromEnv());
  const tokens = new TokenSource({ tokenUrl: defaultTokenUrl(sandbox.baseUrl), ...DEMO_CLIENT, dispatcher });
  const client = new ServiceClient({ baseUrl: sandbox.baseUrl, tokens, dispatcher });
  try {
    const { results, stoppedBy } = await bulkImport(fileItems(spotFiles), client, {
      onProgress: (done, total, last) => console.log(`[${done}/${total}] ${last.ok ? 'imported' : 'skipped '} ${relative(examples, last.label)}`),
    });
    if (stoppedBy) console.log(`Stopped early: ${stoppedBy.message}`);
    let imageIndex = 0;
    for (const result of results) {
      if (!result.ok) {
        console.log(`  ✗ ${relative(examples, result.label)}: ${result.reason}`);
        continue;
      }
      const { spotId, pendingGalleries } = result.result;
      console.log(`  ✓ ${result.sourceId} is spot ${spotId}${pendingGalleries.length ? `, pending galleries: ${pendingGalleries.map((g) => `${g.field}=${g.galleryId}`).join(', ')}` : ''}`);
      for (const gallery of pendingGalleries) {
        const image = images[imageIndex++ % images.length];
        const upload = await client.uploadMedia(gallery.galleryId, image);
        const read = await client.getGallery(gallery.galleryId);
        console.log(`    uploaded ${upload.fileName} (${upload.mimeType}, ${upload.bytes} bytes) → gallery ${gallery.galleryId} now holds: ${read.media.map((m) => m.file).join(', ')}`);
      }
    }
    const failed = results.filter((r) => !r.ok).length;
    console.log(`${results.length - failed} imported, ${failed} skipped (the skipped one is meant to show validation).`);
    return 0;
  } finally {
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
