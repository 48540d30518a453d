// A position the platform moved on purpose: iNaturalist's exports give an obscured observation
// (a threatened taxon, or the observer's choice) a random public point up to some 20 km from the
// real one, saying so in coordinates_obscured and widening public_positional_accuracy. Such a
// spot is worth importing, but not as if it were precise.
import { l10n } from '../../text/l10n';

/** Why the row's position is not where the observation was made, or undefined. */
export function obscuredPositionWarning(values: Readonly<Record<string, unknown>>): string | undefined {
  const flag = values.coordinates_obscured;
  if (flag !== true && !(typeof flag === 'string' && flag.trim().toLowerCase() === 'true')) return undefined;
  const accuracy = Number(values.public_positional_accuracy);
  return values.public_positional_accuracy !== '' && Number.isFinite(accuracy) && accuracy > 0
    ? l10n.t(
        'the position is obscured (coordinates_obscured is true): the platform moved it at random, up to {0} m from where the observation was made; only the observer can export the real one.',
        accuracy,
      )
    : l10n.t(
        'the position is obscured (coordinates_obscured is true): the platform moved it at random, up to some 20 km from where the observation was made; only the observer can export the real one.',
      );
}
