// spot-import token: asks for an access token with the configured credentials and says how long it
// lives, and which setting came from where. The token itself is never printed.
import { connect } from '../connect';
import { EXIT } from '../exit';
import { getTokenOrFail } from '../serviceFailure';
import { describeSource, resolveSettings, type ConnectionFlags, type Setting } from '../settings/resolveSettings';
import type { CliContext } from '../context';

export interface TokenOptions extends ConnectionFlags {
  format: 'text' | 'json';
}

export async function runToken(options: TokenOptions, context: CliContext): Promise<number> {
  const settings = await resolveSettings(options, context.env, context.cwd);
  const connection = await connect(settings, { secretFromStdin: !!options.clientSecretStdin, env: context.env });
  try {
    const token = await getTokenOrFail(connection.tokens);
    // The token source's redactor knows the client secret, and masks the shapes a credential takes
    // in a URL (?client_secret=…, ?token=…) even when it does not.
    const printable = (url: string) => connection.tokens.redactor.redact(withoutUserInfo(url));
    const sources = {
      baseUrl: settings.baseUrl?.from ?? 'default',
      tokenUrl: settings.tokenUrl?.from ?? 'default',
      apiVersion: settings.apiVersion.from,
      clientId: connection.sandbox ? 'default' : (settings.clientId?.from ?? 'default'),
      concurrency: settings.concurrency.from,
      ...(settings.topic ? { topic: settings.topic.from } : {}),
    };
    if (options.format === 'json') {
      const record = {
        type: 'token',
        clientId: connection.clientId,
        baseUrl: printable(connection.baseUrl),
        tokenUrl: printable(connection.tokenUrl),
        apiVersion: connection.apiVersion,
        sandbox: connection.sandbox,
        lifetimeSeconds: token.lifetimeSeconds,
        lifetimeFromServer: token.fromServer,
        ...(settings.configFile ? { configFile: settings.configFile } : {}),
        sources,
      };
      context.stdout.write(`${JSON.stringify(record)}\n`);
      return EXIT.ok;
    }
    const lifetime = `${token.lifetimeSeconds} s${token.fromServer ? '' : ' (assumed: the reply had no expires_in)'}`;
    const from = <T>(setting: Setting<T> | undefined, env: string) => (setting ? describeSource(setting.from, env, settings.configFile) : 'the default');
    context.stdout.write(
      [
        `Credentials accepted: client ${connection.clientId} got a token that lives ${lifetime}.`,
        `  base URL     ${printable(connection.baseUrl)}${connection.sandbox ? ' (the built-in sandbox)' : ''}  ${from(settings.baseUrl, 'SPOT_BASE_URL')}`,
        `  token URL    ${printable(connection.tokenUrl)}  ${from(settings.tokenUrl, 'SPOT_TOKEN_URL')}`,
        `  API version  ${connection.apiVersion}  ${from(settings.apiVersion, 'SPOT_API_VERSION')}`,
        `  concurrency  ${settings.concurrency.value}  ${from(settings.concurrency, '')}`,
        ...(settings.topic ? [`  topic        ${settings.topic.value}  ${from(settings.topic, '')}`] : []),
        '',
      ].join('\n'),
    );
    return EXIT.ok;
  } finally {
    await connection.close();
  }
}

/**
 * A URL less the user name and password written into it (http://user:password@host/…): they are
 * credentials, and the redactor cannot know them. Everything after the authority is kept as given.
 */
function withoutUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
}
