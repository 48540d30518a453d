// The bundled undici does not see VS Code's proxy settings (VS Code patches only its built-in
// http/https/fetch), so the dispatcher options are built here from http.proxy, http.noProxy and
// http.proxyStrictSSL, falling back to the proxy environment variables like VS Code does.
import * as vscode from 'vscode';
import type * as Core from '../core';

export function httpOptionsFromVsCode(requestTimeoutSeconds: number, env: NodeJS.ProcessEnv = process.env): Core.HttpOptions {
  const http = vscode.workspace.getConfiguration('http');
  const proxyUrl = http.get<string>('proxy', '').trim()
    || env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || undefined;
  const configuredNoProxy = http.get<string[]>('noProxy', []).map((entry) => entry.trim()).filter(Boolean);
  const envNoProxy = (env.NO_PROXY ?? env.no_proxy ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  return {
    proxyUrl,
    noProxy: configuredNoProxy.length > 0 ? configuredNoProxy : envNoProxy,
    strictSSL: http.get<boolean>('proxyStrictSSL', true),
    idleTimeoutMs: requestTimeoutSeconds * 1000,
  };
}
