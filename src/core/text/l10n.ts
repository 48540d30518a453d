// The core's messages that people read (problems, failures, outcomes) go through `l10n.t`, the
// call @vscode/l10n offers to code that runs outside the extension API. Without a bundle they
// are the English source text: that is what the command line prints (it stays English, see
// docs/cli.md). The extension hands over VS Code's bundle for the display language at
// activation, so the same messages read in German where the extension shows them.
//
// The bundle is held on globalThis, not in this module: the extension's bundles each carry
// their own copy of small modules they share nothing through (esbuild.js), and every copy must
// see the one bundle the extension set.
import * as messages from '@vscode/l10n';

export type MessageBundle = Record<string, string | { message: string; comment: string[] }>;

const BUNDLE = Symbol.for('spot-import.messageBundle');
const LANGUAGE = Symbol.for('spot-import.messageLanguage');
type BundleHolder = { [BUNDLE]?: MessageBundle; [LANGUAGE]?: string };
const holder = globalThis as BundleHolder;

/**
 * Messages in the language of `bundle` from now on (undefined: English, the source text).
 * `language` (VS Code's display language, e.g. "de") words the numbers in them: "3,2 MB".
 */
export function useMessageBundle(bundle: MessageBundle | undefined, language?: string): void {
  holder[BUNDLE] = bundle;
  holder[LANGUAGE] = bundle === undefined ? undefined : language;
}

const decimalFormats = new Map<string, Intl.NumberFormat>();

/**
 * `value` with exactly `fractionDigits` decimals, in the messages' language: "3.2" in English
 * (and on the command line), "3,2" in German. No grouping, so English reads as it always did.
 */
export function formatDecimal(value: number, fractionDigits: number): string {
  const language = holder[LANGUAGE] ?? 'en';
  const key = `${language}/${fractionDigits}`;
  let format = decimalFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits, useGrouping: false });
    decimalFormats.set(key, format);
  }
  return format.format(value);
}

let configured: MessageBundle | undefined;

function translate(...args: Parameters<typeof messages.t>): string {
  const bundle = holder[BUNDLE];
  if (bundle !== configured) {
    messages.config({ contents: bundle ?? {} });
    configured = bundle;
  }
  return (messages.t as (...a: unknown[]) => string)(...args);
}

/**
 * `l10n.t('Latitude {0} is out of range', value)`: named so that `@vscode/l10n-dev export` (and
 * scripts/checkL10n.js) find every message of the core as they find the extension's.
 */
export const l10n: { t: typeof messages.t } = { t: translate as typeof messages.t };
