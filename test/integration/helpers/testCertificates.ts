// A throw-away certificate authority and a server certificate for 127.0.0.1 signed by it, made with
// the openssl command line at test time (no key material is checked in, and no package is needed
// for it). Everything lives in one temporary folder that cleanup() removes.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface TestCertificates {
  dir: string;
  /** The authority's certificate (PEM): what spotImport.caCertificates would list. */
  caFile: string;
  /** The server's key and certificate chain (PEM), for https.createServer. */
  key: string;
  cert: string;
  cleanup(): void;
}

/** True when an openssl binary runs (the tests that need one skip without it). */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function makeTestCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spot-tls-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl(
      'req',
      '-x509',
      ...ecKey,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=Spot Import integration test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    openssl('req', ...ecKey, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=127.0.0.1');
    fs.writeFileSync(
      file('server.ext'),
      [
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        'basicConstraints=CA:FALSE',
        'keyUsage=critical,digitalSignature,keyEncipherment',
        'extendedKeyUsage=serverAuth',
        '',
      ].join('\n'),
    );
    openssl(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('server.pem'),
      '-days',
      '2',
      '-extfile',
      file('server.ext'),
    );
    return {
      dir,
      caFile: file('ca.pem'),
      key: fs.readFileSync(file('server.key'), 'utf8'),
      cert: fs.readFileSync(file('server.pem'), 'utf8'),
      cleanup,
    };
  } catch (error) {
    cleanup();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`openssl could not make the test certificates${stderr ? `: ${stderr}` : ''}`);
  }
}
