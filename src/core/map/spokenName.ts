// A marker's spoken name (its aria-label, tooltip and list entry) from its parts: one rule for the
// extension, which keeps each marker's name, and the map's page, which builds the names itself
// from the few fields it is sent. No imports, so the page's bundle takes only this.

export interface SpokenNameParts {
  sourceId: string;
  /** The state's words: "Not yet imported". */
  stateLabel: string;
  /** "topic 7 (Trail observations)", or empty. */
  topic: string;
  latitude: number;
  longitude: number;
  /** What is wrong with the place, when something is. */
  misplacedText?: string;
}

/** "trail-7: Active, topic 7 (Trail observations), 47.5, 13.1, outside its topic's area". */
export function spokenName(parts: SpokenNameParts): string {
  const topic = parts.topic ? `, ${parts.topic}` : '';
  const misplaced = parts.misplacedText ? `, ${parts.misplacedText}` : '';
  return `${parts.sourceId}: ${parts.stateLabel}${topic}, ${parts.latitude}, ${parts.longitude}${misplaced}`;
}
