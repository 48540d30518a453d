// The proposed topic: the topic whose fields' labels (or names) head the most columns, and only
// one that heads at least one: a catalog's only topic is not proposed for a table that has none
// of its fields, where a wrong topic would only be found when every row is refused.
import { l10n } from '../../text/l10n';
import type { TopicCatalog, TopicDefinition } from '../../topics/topicSchema';
import { columnOfLabel, sameLabel } from './labelKey';

export interface TopicGuess {
  definition?: TopicDefinition;
  notes: string[];
}

export function guessTopic(topics: TopicCatalog | undefined, columns: readonly string[]): TopicGuess {
  const definitions = topics ? [...topics.values()] : [];
  const ranked = definitions
    .map((definition) => ({
      definition,
      count: Object.entries(definition.fields).filter(([name, spec]) => columnOfField(columns, name, spec.label) !== undefined).length,
    }))
    .filter((candidate) => candidate.count > 0)
    .sort((a, b) => b.count - a.count);
  if (ranked.length === 0) return { notes: [] };
  const [best, ...others] = ranked;
  const { definition } = best;
  const notes = [
    definition.name
      ? l10n.t("topic_id: {0} ({1}), the topic whose fields' labels match the most columns", definition.topic_id, definition.name)
      : l10n.t("topic_id: {0}, the topic whose fields' labels match the most columns", definition.topic_id),
  ];
  const tied = others.filter((other) => other.count === best.count).map((other) => other.definition.topic_id);
  if (tied.length === 1) notes.push(l10n.t('topic_id: topic {0} matches as many columns ({1}): check it is the one meant', tied[0], best.count));
  else if (tied.length > 1) notes.push(l10n.t('topic_id: topics {0} match as many columns ({1}): check it is the one meant', tied.join(', '), best.count));
  return { definition, notes };
}

/**
 * The column headed with the field's label (written any way, or at the end of a form's group path:
 * columnOfLabel), else with its name; only among the columns `free` allows.
 */
export function columnOfField(columns: readonly string[], name: string, label: string, free: (column: string) => boolean = () => true): string | undefined {
  return columnOfLabel(columns, label, free) ?? columns.find((column) => free(column) && sameLabel(column, name));
}
