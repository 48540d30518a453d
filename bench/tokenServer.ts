// The token server of the activation bench's first network use (bench/activationHost.ts, and
// the plain-Node replica run by bench/activation.ts).
import { spawn } from 'child_process';

// The token server, in a process of its own as a real one is: in this host it would add its own
// first request (parsing it, formatting its first Date header) to the time measured as ours. It
// answers three requests of its own before it says its port, as a running service has answered
// others before ours: its own first request cost the measured one about 5 ms in a plain-Node replica.
const TOKEN_SERVER = `
  const http = require('http');
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ access_token: 'bench-token', token_type: 'Bearer', expires_in: 3600 }));
    });
  });
  const ask = (port) => new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/oauth/token', agent: false }, (response) => response.resume().on('end', resolve));
    request.once('error', reject).end('grant_type=client_credentials');
  });
  server.listen(0, '127.0.0.1', async () => {
    const { port } = server.address();
    for (let i = 0; i < 3; i++) await ask(port);
    process.stdout.write(port + '\\n');
  });
  process.stdin.on('end', () => process.exit(0)).resume();
`;

/** A loopback server, in a child process, that answers every request with a token. */
export async function tokenServer(): Promise<{ url: string; close(): Promise<void> }> {
  // This host's executable runs as plain Node (VS Code's is Electron; code-server's is Node).
  const child = spawn(process.execPath, ['-e', TOKEN_SERVER], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(Number(text.trim()));
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the token server exited (${code}) before it listened`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    // Its standard input closing ends it.
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
