// The topic of a document being written, which may not be valid JSON at this moment: its members
// are read with the tolerant visitor, and topic_id from its own characters.
import { layoutFromText, type AttributesLayout, type MemberLayout } from './attributesLayout';
import type { TopicCatalog, TopicDefinition } from './topicSchema';

export interface DocumentTopic {
  layout: AttributesLayout;
  definition?: TopicDefinition;
}

export function documentTopic(text: string, catalog: TopicCatalog): DocumentTopic {
  const layout = layoutFromText(text);
  const topicMember = layout.members.find((member) => member.name === 'topic_id');
  const topicId = topicMember ? valueOf(text, topicMember) : undefined;
  return { layout, definition: typeof topicId === 'number' ? catalog.get(topicId) : undefined };
}

/** The JSON value of a member (or of any span), or undefined when its characters are not JSON yet. */
export function valueOf(text: string, member: Pick<MemberLayout, 'value'>): unknown {
  if (member.value.offset < 0 || member.value.length < 0) return undefined;
  try {
    return JSON.parse(text.slice(member.value.offset, member.value.offset + member.value.length));
  } catch {
    return undefined;
  }
}

/** The member whose name or value contains the offset. */
export function memberAt(layout: AttributesLayout, offset: number): MemberLayout | undefined {
  return layout.members.find((member) => contains(member.key, offset) || contains(member.value, offset));
}

export function contains(span: { offset: number; length: number }, offset: number): boolean {
  return offset >= span.offset && offset <= span.offset + span.length;
}
