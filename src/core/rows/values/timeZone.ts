// Time zones by IANA name (Europe/Vienna, UTC), as luxon knows them through Intl. A misspelt name
// gets the closest known one suggested. Fixed offsets ("UTC+1") and the machine's own zone are not
// accepted: the first ignores daylight saving, the second would make an import depend on where it
// runs.
import { IANAZone } from 'luxon';
import { closestName } from '../../topics/suggestMember';

/** The zone an option names, or a problem that names the option. */
export function resolveTimeZone(name: string, option: string): { zone: IANAZone } | { problem: string } {
  if (IANAZone.isValidZone(name)) return { zone: IANAZone.create(name) };
  const meant = closestName(name, ['UTC', ...Intl.supportedValuesOf('timeZone')]);
  const suggestion = meant === undefined ? ' (an IANA name such as Europe/Vienna or UTC).' : `; did you mean ${JSON.stringify(meant)}?`;
  return { problem: `${option} ${JSON.stringify(name)} is not a known time zone${suggestion}` };
}
