// The bundled undici sees neither VS Code's proxy settings (VS Code patches only its built-in
// http/https/fetch) nor the operating system's certificate store, so the dispatcher options are
// built here: the core's reading of the proxy environment variables, with VS Code's http.proxy,
// http.noProxy and http.proxyStrictSSL applied over it, and the extra CA certificates of the
// setting spotImport.caCertificates. Called only while a client is built, when the core is loaded.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import * as vscode from 'vscode';
import type * as Core from '../../core';
import { ActionableError, CA_CERTIFICATES_SETTING, OPEN_CA_SETTINGS } from './errors';
import type { SpotImportSettings } from './settings';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export async function httpOptionsFromVsCode(
  core: Pick<typeof Core, 'proxyOptionsFromEnv'>,
  settings: Pick<SpotImportSettings, 'requestTimeoutSeconds' | 'caCertificates'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Core.HttpOptions> {
  const fromEnv = core.proxyOptionsFromEnv(env);
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.get<string>('proxy', '').trim();
  const noProxy = http
    .get<string[]>('noProxy', [])
    .map((entry) => entry.trim())
    .filter(Boolean);
  // VS Code's default (true) must not silently override NODE_TLS_REJECT_UNAUTHORIZED=0; a value
  // the user set does.
  const strict = http.inspect<boolean>('proxyStrictSSL');
  const strictSet = strict !== undefined && [strict.globalValue, strict.workspaceValue, strict.workspaceFolderValue].some((value) => value !== undefined);
  const ca = await trustedCertificates(settings.caCertificates, env);
  return {
    ...fromEnv,
    ...(proxy ? { proxyUrl: proxy } : {}),
    ...(noProxy.length > 0 ? { noProxy } : {}),
    strictSSL: strictSet ? http.get<boolean>('proxyStrictSSL', true) : (fromEnv.strictSSL ?? true),
    ...(ca ? { ca } : {}),
    idleTimeoutMs: settings.requestTimeoutSeconds * 1000,
  };
}

/**
 * The CA list for the dispatcher, or undefined for Node's default. A `ca` option replaces Node's
 * whole trust store, so when one is set it carries the bundled roots, NODE_EXTRA_CA_CERTS, the
 * system store where this Node can read it (tls.getCACertificates, Node 22.15+; Node 20 has
 * none) and the configured files.
 */
async function trustedCertificates(files: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string[] | undefined> {
  const configured = await readCaFiles(files);
  const system = systemCertificates();
  if (configured.length === 0 && system.length === 0) return undefined;
  return [...new Set([...(await defaultCertificates(env)), ...system, ...configured])];
}

/** Reads the PEM files of spotImport.caCertificates; any problem names the setting and the file. */
export async function readCaFiles(files: readonly string[]): Promise<string[]> {
  const certificates: string[] = [];
  for (const entry of files) {
    const file = expandHome(entry.trim());
    if (!file) continue;
    const fix = [OPEN_CA_SETTINGS];
    if (!path.isAbsolute(file)) {
      throw new ActionableError(
        vscode.l10n.t('The setting {0} lists "{1}": use an absolute path to a PEM certificate file.', CA_CERTIFICATES_SETTING, entry),
        fix,
      );
    }
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (error) {
      throw new ActionableError(
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? vscode.l10n.t('The setting {0} lists {1}, which cannot be read: there is no such file.', CA_CERTIFICATES_SETTING, file)
          : vscode.l10n.t('The setting {0} lists {1}, which cannot be read: {2}.', CA_CERTIFICATES_SETTING, file, (error as Error).message),
        fix,
      );
    }
    const found = text.match(PEM_CERTIFICATE);
    if (!found)
      throw new ActionableError(
        vscode.l10n.t('The setting {0} lists {1}, which holds no PEM certificate (-----BEGIN CERTIFICATE-----).', CA_CERTIFICATES_SETTING, file),
        fix,
      );
    certificates.push(...found);
  }
  return certificates;
}

type TlsWithStores = typeof tls & { getCACertificates?: (type?: 'default' | 'system' | 'bundled' | 'extra') => string[] };

function systemCertificates(): string[] {
  try {
    return (tls as TlsWithStores).getCACertificates?.('system') ?? [];
  } catch {
    return [];
  }
}

/** What Node trusts without a `ca` option: its bundled roots plus NODE_EXTRA_CA_CERTS. */
async function defaultCertificates(env: NodeJS.ProcessEnv): Promise<string[]> {
  const getCACertificates = (tls as TlsWithStores).getCACertificates;
  if (getCACertificates) {
    try {
      return getCACertificates('default');
    } catch {
      // fall through to the Node 20 way
    }
  }
  const extra: string[] = [];
  if (env.NODE_EXTRA_CA_CERTS) {
    try {
      extra.push(...((await fs.readFile(env.NODE_EXTRA_CA_CERTS, 'utf8')).match(PEM_CERTIFICATE) ?? []));
    } catch {
      // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS.
    }
  }
  return [...tls.rootCertificates, ...extra];
}

function expandHome(file: string): string {
  return file === '~' || file.startsWith('~/') ? path.join(os.homedir(), file.slice(1)) : file;
}
