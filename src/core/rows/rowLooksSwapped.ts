// Whether a checked row's latitude and longitude look swapped, the one judgement behind the
// editor's swap quick fix and its count of rows: a problem under the documents' rule for it (a
// latitude out of range that swapped is a position, a hemisphere letter of the other axis, a grid's
// x and y), or the topic's area warning when swapping would bring the spot inside (degrees in range
// both ways round, 15/47 for 47/15, are seen only against an area).
import { SPOT_RULES } from '../api/spotRules';
import { swapWouldFix } from '../geo/position';
import { TOPIC_RULES } from '../topics/topicProblem';
import type { TopicCatalog } from '../topics/topicSchema';
import type { CheckedRow } from './checkRows';

export function rowLooksSwapped(checked: CheckedRow, topics: TopicCatalog | undefined): boolean {
  if (checked.findings.some((finding) => finding.rule === SPOT_RULES.swappedCoordinates)) return true;
  if (!checked.spot || !checked.findings.some((finding) => finding.rule === TOPIC_RULES.outsideArea)) return false;
  const { latitude, longitude, topic_id } = (JSON.parse(checked.spot.text) as { data: { attributes: Record<string, unknown> } }).data.attributes;
  const bbox = typeof topic_id === 'number' ? topics?.get(topic_id)?.area?.bbox : undefined;
  return typeof latitude === 'number' && typeof longitude === 'number' && bbox !== undefined && swapWouldFix(latitude, longitude, bbox);
}
