// Runs the sandbox in its own process, so the benchmark measures the client's memory and CPU only.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface SandboxProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startSandboxProcess(distDir: string): Promise<SandboxProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(distDir, 'sandboxCli.js'), '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the sandbox did not start within 15 s')), 15_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
  return {
    baseUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        process.kill(-child.pid!, 'SIGTERM');
        setTimeout(resolve, 5000).unref();
      }),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
