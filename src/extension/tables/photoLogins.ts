// Photos a table gives by web address, fetched by the editor's Import Rows as the command line
// fetches them (the core's PhotoFetcher, into the journal's downloads/). A login the mapping asks
// for (media "headers") is never in the mapping: the editor asks for its value once per host and
// header, with a password box, and keeps it in VS Code's secret storage; it goes to that host only.
import { join } from 'node:path';
import * as vscode from 'vscode';
import type * as Core from '../../core';
import type * as Rows from '../../core/rows';
import type { CommandServices } from '../commands/commandTable';
import { httpOptionsFromVsCode } from '../platform/httpOptions';
import { readSettings } from '../platform/settings';

const KEY_PREFIX = 'spotImport.photoLogin:';

/**
 * The engine's fetchPhoto for this mapping's photos; `signal` stops a download under way. Through
 * the proxy and certificate settings the service client uses (httpOptionsFromVsCode); call
 * `dispose` when the run is over.
 */
export async function photoFetching(
  services: CommandServices,
  core: typeof Core,
  mapping: Rows.ResolvedMapping,
  journalDir: string,
  signal: AbortSignal,
): Promise<{ fetchPhoto: (url: string) => Promise<Core.FetchedPhoto>; dispose(): Promise<void> }> {
  const wanted = mapping.media.flatMap((media) => (media.headers ?? []).map((header) => ({ ...header, field: media.field })));
  const asking = new Map<string, Promise<string | undefined>>();
  const loginFor = async (host: string): Promise<Core.FetchHeader[]> => {
    const headers: Core.FetchHeader[] = [];
    for (const header of wanted) {
      if (header.host !== host) continue;
      const key = `${KEY_PREFIX}${host}:${header.name.toLowerCase()}`;
      // Two rows' photos from one host ask once.
      let value = asking.get(key);
      if (!value) {
        value = valueOf(services, core, key, host, header.name, header.field);
        asking.set(key, value);
      }
      const given = await value;
      if (given) headers.push({ name: header.name, value: given, host });
    }
    return headers;
  };
  // A login the host refused is dropped, kept and asked for: the next run asks again.
  const onLoginRefused = (host: string) => {
    for (const header of wanted.filter((each) => each.host === host)) {
      const key = `${KEY_PREFIX}${host}:${header.name.toLowerCase()}`;
      void services.context.secrets.delete(key);
      services.log.warn('import', `${host} refused the login for photos (${header.name}): it was dropped, the next run asks for it`);
    }
  };
  const settings = readSettings();
  const dispatcher = core.createDispatcher(await httpOptionsFromVsCode(core, settings));
  const fetcher = new core.PhotoFetcher({
    cacheDir: join(journalDir, 'downloads'),
    loginFor,
    onLoginRefused,
    dispatcher,
    retry: { maxRetries: settings.maxRetries },
    ...(settings.mediaAcceptedTypes ? { acceptedTypes: settings.mediaAcceptedTypes } : {}),
  });
  return { fetchPhoto: (url) => fetcher.fetch(url, signal), dispose: () => dispatcher.close() };
}

async function valueOf(services: CommandServices, core: typeof Core, key: string, host: string, name: string, field: string): Promise<string | undefined> {
  const stored = await services.context.secrets.get(key);
  // One kept before the input box checked it, with a line break the header cannot carry: asked for again.
  if (stored && core.isSendableHeaderValue(stored)) return stored;
  const given = await services.ui.showInputBox({
    title: vscode.l10n.t('Login for the photos on {0}', host),
    prompt: vscode.l10n.t(
      'The mapping\'s photos of {0} need the header {1} for {2}: its value (e.g. "Token …") is kept in VS Code\'s secret storage and sent to {2} only.',
      field,
      name,
      host,
    ),
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) =>
      core.isSendableHeaderValue(value)
        ? undefined
        : vscode.l10n.t('The value has a line break or another control character, which a header cannot carry: paste it again without.'),
  });
  if (!given) return undefined;
  await services.context.secrets.store(key, given);
  services.log.info('import', `a login for photos on ${host} (${name}) was kept in the secret storage`);
  return given;
}
