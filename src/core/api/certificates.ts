// The TLS verification codes this client tells apart, in one table: the core words its network
// errors from it, and the extension adds its advice (the CA setting) for the untrusted ones.
// No dependencies but the core's messages (text/l10n.ts, which the extension bundles anyway), so
// the extension can bundle it without loading the core.
import { l10n } from '../text/l10n';

export type CertificateProblem = 'untrusted' | 'expired' | 'notYetValid' | 'wrongHost' | 'revoked';

const CERTIFICATE_PROBLEMS: Readonly<Record<string, CertificateProblem>> = {
  // The chain ends in an authority this process does not trust (a company CA, an inspecting proxy).
  DEPTH_ZERO_SELF_SIGNED_CERT: 'untrusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrusted',
  CERT_UNTRUSTED: 'untrusted',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'notYetValid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'wrongHost',
  CERT_REVOKED: 'revoked',
};

/** The problem a TLS error code names, if it is a certificate problem. */
export function certificateProblem(code: string): CertificateProblem | undefined {
  return Object.prototype.hasOwnProperty.call(CERTIFICATE_PROBLEMS, code) ? CERTIFICATE_PROBLEMS[code] : undefined;
}

/** "its certificate has expired (CERT_HAS_EXPIRED)", for a network error's message. */
export function describeCertificateProblem(code: string): string | undefined {
  switch (certificateProblem(code)) {
    case 'untrusted':
      return l10n.t('its certificate was not accepted ({0})', code);
    case 'expired':
      return l10n.t('its certificate has expired ({0})', code);
    case 'notYetValid':
      return l10n.t("its certificate is not valid yet (check this computer's clock) ({0})", code);
    case 'wrongHost':
      return l10n.t('its certificate is for another host name ({0})', code);
    case 'revoked':
      return l10n.t('its certificate has been revoked ({0})', code);
    default:
      return undefined;
  }
}

/**
 * The TLS code when a request failed because the server's certificate is not signed by a trusted
 * authority, read through the causes (the core keeps undici's error as `details.cause`).
 */
export function untrustedCertificateCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && certificateProblem(code) === 'untrusted') return code;
    const holder = current as { cause?: unknown; details?: { cause?: unknown } };
    current = holder.cause ?? holder.details?.cause;
  }
  return undefined;
}
