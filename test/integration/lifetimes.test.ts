// Shutdown order. VS Code awaits deactivate() and then disposes context.subscriptions in array
// order (not in reverse), so whatever the extension owns must be stopped by then, the log last:
// the local sandbox writes its last line ("local sandbox stopped") while it stops, and a line
// written to a disposed channel is lost (or throws). The services are built a second time here, on
// a context and a recording channel of the test's own, and shut down the way VS Code does it.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { OwnedServices } from '../../src/extension/extension';
import { SANDBOX_PROFILE_ID } from '../../src/extension/platform/domain';
import { extensionServices } from './helpers/scriptedUi';
import { waitFor } from './helpers/testEnv';
import { memoryContext } from './helpers/memoryMemento';

/** A LogOutputChannel that records every line, and every line that came after its dispose(). */
function recordingChannel(): { channel: vscode.LogOutputChannel; lines: string[]; afterDispose: string[]; disposed(): boolean } {
  const lines: string[] = [];
  const afterDispose: string[] = [];
  let isDisposed = false;
  const write = (level: string) => (message: string) => {
    lines.push(`${level} ${message}`);
    if (isDisposed) afterDispose.push(`${level} ${message}`);
  };
  const channel = {
    name: 'Spot Import (lifetime test)',
    logLevel: vscode.LogLevel.Trace,
    onDidChangeLogLevel: new vscode.EventEmitter<vscode.LogLevel>().event,
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: (message: string | Error) => write('error')(String(message)),
    append: write('append'),
    appendLine: write('appendLine'),
    replace: write('replace'),
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => {
      isDisposed = true;
    },
  } as unknown as vscode.LogOutputChannel;
  return { channel, lines, afterDispose, disposed: () => isDisposed };
}

describe('lifetimes: shutting down the way VS Code does', function () {
  this.timeout(60_000);

  it('writes nothing to the log channel once it is disposed, though the local sandbox was running', async () => {
    const live = await extensionServices();
    const { context, subscriptions } = memoryContext(live.context.extensionMode);
    const log = recordingChannel();
    const owned = await vscode.commands.executeCommand<OwnedServices>('spotImport.test.createServices', context, log.channel);
    assert.ok(owned, 'the test command built the services');

    // The sandbox profile's client starts the in-process sandbox (it logs where it listens).
    const { profile } = await owned.services.clients.clientFor(SANDBOX_PROFILE_ID);
    assert.ok(profile.baseUrl.startsWith('http://127.0.0.1:'), `the sandbox runs (${profile.baseUrl})`);
    assert.ok(
      log.lines.some((line) => line.includes('local sandbox listening')),
      log.lines.join('\n'),
    );

    // VS Code: deactivate() awaited, then context.subscriptions disposed in array order.
    await owned.deactivate();
    for (const subscription of subscriptions) subscription.dispose();
    assert.ok(log.disposed(), 'the log channel was disposed');
    // The sandbox stops asynchronously: wait until its port is closed (bounded).
    await waitFor(
      'the sandbox to stop',
      async () => {
        try {
          await fetch(`${profile.baseUrl}/api/v2.4/galleries/1`, { signal: AbortSignal.timeout(2000) });
          return false;
        } catch {
          return true;
        }
      },
      20_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepStrictEqual(log.afterDispose, [], 'lines written after the channel was disposed');
    assert.ok(
      log.lines.some((line) => line.includes('local sandbox stopped')),
      "the sandbox's last line reached the log",
    );
  });
});
