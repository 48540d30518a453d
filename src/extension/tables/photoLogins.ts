// Photos a table gives by web address, fetched by the editor's Import Rows as the command line
// fetches them (the core's PhotoFetcher, into the journal's downloads/). A login the mapping asks
// for (media "headers") is never in the mapping: the editor asks for its value once per host and
// header, with a password box, and keeps it in VS Code's secret storage; it goes to that host only.
import * as vscode from 'vscode';
import type * as Core from '../../core';
import type * as Rows from '../../core/rows';
import type { CommandServices } from '../commands/commandTable';

const KEY_PREFIX = 'spotImport.photoLogin:';

/** The engine's fetchPhoto for this mapping's photos; `signal` stops a download under way. */
export function photoFetching(
  services: CommandServices,
  core: typeof Core,
  mapping: Rows.ResolvedMapping,
  journalDir: string,
  signal: AbortSignal,
): (url: string) => Promise<Core.FetchedPhoto> {
  const wanted = mapping.media.flatMap((media) => (media.headers ?? []).map((header) => ({ ...header, field: media.field })));
  const asking = new Map<string, Promise<string | undefined>>();
  const loginFor = async (host: string): Promise<Core.FetchHeader[]> => {
    const headers: Core.FetchHeader[] = [];
    for (const header of wanted) {
      if ((header.host ?? host) !== host) continue;
      const key = `${KEY_PREFIX}${host}:${header.name.toLowerCase()}`;
      // Two rows' photos from one host ask once.
      let value = asking.get(key);
      if (!value) {
        value = valueOf(services, key, host, header.name, header.field);
        asking.set(key, value);
      }
      const given = await value;
      if (given) headers.push({ name: header.name, value: given, host });
    }
    return headers;
  };
  const fetcher = new core.PhotoFetcher({ cacheDir: `${journalDir}/downloads`, loginFor });
  return (url) => fetcher.fetch(url, signal);
}

async function valueOf(services: CommandServices, key: string, host: string, name: string, field: string): Promise<string | undefined> {
  const stored = await services.context.secrets.get(key);
  if (stored) return stored;
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
  });
  if (!given) return undefined;
  await services.context.secrets.store(key, given);
  services.log.info('import', `a login for photos on ${host} (${name}) was kept in the secret storage`);
  return given;
}
