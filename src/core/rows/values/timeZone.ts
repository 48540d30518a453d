// Time zones by IANA name (Europe/Vienna, UTC), as luxon knows them through Intl, or by the name
// Ruby on Rails gives them ("Buenos Aires", "Pacific Time (US & Canada)"), which iNaturalist's
// exports write in each row's time_zone: ActiveSupport's own table of them, as the rails-timezone
// package keeps it (loaded when such a name is met). A misspelt name gets the closest known one
// suggested. Fixed offsets ("UTC+1") and the machine's own zone are not accepted: the first ignores
// daylight saving, the second would make an import depend on where it runs.
//
// Each name is resolved once per process and kept: a table names a few zones, and it is asked for
// them on every cell (up to MAX_KEPT names: a column of junk is resolved each time past that). luxon's IANAZone.isValidZone makes a new Intl.DateTimeFormat on
// every call, whose ICU object lives outside V8's heap, so V8 sees no reason to collect it soon:
// asked per cell, 100,000 rows held over a gigabyte (test/unit/cliRowsStreaming.test.ts).
import { IANAZone } from 'luxon';
import { l10n } from '../../text/l10n';
import { closestName } from '../../topics/suggestMember';

// A problem is kept worded in the language of its first use (set once, at the extension's activation).
const resolved = new Map<string, { zone: IANAZone } | { problem: string }>();
const MAX_KEPT = 1024;

/** The zone an option names, or a problem that names the option. */
export function resolveTimeZone(name: string, option: string): { zone: IANAZone } | { problem: string } {
  const key = `${option}\n${name}`;
  let result = resolved.get(key);
  if (!result) {
    result = resolveOnce(name, option);
    if (resolved.size < MAX_KEPT) resolved.set(key, result);
  }
  return result;
}

function resolveOnce(name: string, option: string): { zone: IANAZone } | { problem: string } {
  if (IANAZone.isValidZone(name)) return { zone: IANAZone.create(name) };
  const rails = require('rails-timezone') as typeof import('rails-timezone');
  // Its table is a plain object: a name such as "constructor" would find a function in it.
  const iana: unknown = rails.list().includes(name) ? rails.from(name) : undefined;
  if (typeof iana === 'string' && IANAZone.isValidZone(iana)) return { zone: IANAZone.create(iana) };
  const meant = closestName(name, ['UTC', ...Intl.supportedValuesOf('timeZone')]);
  return {
    problem:
      meant === undefined
        ? l10n.t('{0} {1} is not a known time zone (an IANA name such as Europe/Vienna or UTC).', option, JSON.stringify(name))
        : l10n.t('{0} {1} is not a known time zone; did you mean {2}?', option, JSON.stringify(name), JSON.stringify(meant)),
  };
}
