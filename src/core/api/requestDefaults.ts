// How long the core's requests may take and how often they are tried again, when the caller does
// not say: the dispatcher's idle timeout (http.ts), the token request's deadline (tokenSource.ts),
// the deadline of an import, gallery read or ordering (serviceClient.ts), of a download
// (downloadMedia.ts, photoFetcher.ts), the retries
// (retryPolicy.ts) and the token lifetime assumed when a reply names none. The extension's
// settings of the same names fall back to these, in seconds, so this file has no dependencies:
// the settings read it at activation without loading the core. package.json's defaults are
// literals: test/unit/settingsManifest.test.ts holds them to these.

/** Time without any byte from the server before a request fails. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** Overall time for one token request, its reply included. */
export const DEFAULT_TOKEN_DEADLINE_MS = 30_000;
/** Overall time for one attempt of an import, a gallery read or an ordering, its reply included. */
export const DEFAULT_REQUEST_DEADLINE_MS = 120_000;
/**
 * Overall time for one download of a gallery's media file or of a photo given by its web address,
 * redirects included: an end to a server that drips its reply. A media download that may hold
 * more gets longer (downloadMedia.ts, downloadDeadlineMs: a large video on a slow line).
 */
export const DEFAULT_DOWNLOAD_DEADLINE_MS = 15 * 60_000;
/** Retries after the first attempt, for 429, 503 and dropped connections. */
export const DEFAULT_MAX_RETRIES = 5;
/** Lifetime of a token whose reply has no expires_in. */
export const DEFAULT_ASSUMED_TOKEN_LIFETIME_SECONDS = 3600;
