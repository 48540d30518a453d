// Which redirects a download follows (a gallery's media file, a photo fetched by its web address):
// never from https down to http, where anyone on the way may read or change the file, and never
// from another host to this machine, which would let a server elsewhere make this machine fetch
// from its own local services (and upload what they answer as a photo).
import { isLoopbackUrl } from './secureUrl';
import { l10n } from '../text/l10n';

/** Why the redirect from `from` to `to` is not followed (a sentence without its full stop), or undefined when it is. */
export function refusedRedirect(from: URL, to: URL): string | undefined {
  const target = `${to.protocol}//${to.host}`;
  if (!isLoopbackUrl(from) && isLoopbackUrl(to)) {
    return l10n.t(
      '{0} redirected to {1} on this machine, which is not followed from another host. If the file is on this machine, give its address there',
      from.host,
      target,
    );
  }
  if (from.protocol === 'https:' && to.protocol !== 'https:') {
    return l10n.t('{0} redirected from https to {1}, which is not followed. Give an https address for the file', from.host, target);
  }
  return undefined;
}
