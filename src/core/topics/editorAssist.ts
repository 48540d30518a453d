// What the editor shows while a document of a defined topic is written: field names and category
// keys to complete (with their labels), what a hover says, and the labels shown inline. Plain data
// here; the extension turns it into VS Code's items.
import { getLocation, type Node } from 'jsonc-parser';
import { categoryKeyLiteral, categoryKeyOf, isCategoryField, type CategoryField } from './categories';
import { documentTopic, valueOf } from './documentTopic';
import type { Span } from '../documents/locate';
import { TOPIC_FIELD_NAME } from '../api/spotSchema';
import { KNOWN_SPOT_MEMBERS, topicTitle, type TopicCatalog, type TopicDefinition, type TopicField } from './topicSchema';
import { l10n } from '../text/l10n';
import { escapeMarkdown, inlineCode } from '../text/markdown';

export interface TopicCompletion {
  kind: 'field' | 'category';
  /** The field name, or the category key as it is written (1, "a"). */
  label: string;
  /** The field's label, or the category's label. */
  description: string;
  detail: string;
  documentation?: string;
  /** Snippet syntax ($1, ${1:x}, ${1|a,b|}). */
  insertSnippet: string;
  /** Characters the item replaces; undefined: the word at the cursor. */
  replace?: Span;
  /** Completion order: required fields first, then in definition order. */
  sortText: string;
}

export function topicCompletions(text: string, offset: number, catalog: TopicCatalog): TopicCompletion[] {
  const location = getLocation(text, offset);
  const path = location.path;
  if (path[0] !== 'data' || path[1] !== 'attributes') return [];
  const { layout, definition } = documentTopic(text, catalog);
  if (!definition) return [];
  const typed = stringOrLiteralAt(location.previousNode, offset);
  if (path.length === 3 && location.isAtPropertyKey) {
    const present = new Set(layout.members.map((member) => member.name));
    // A key already written after the cursor is replaced, and its colon kept.
    const hasColon = typed ? /^\s*:/.test(text.slice(typed.offset + typed.length)) : false;
    return Object.entries(definition.fields)
      .filter(([name]) => !present.has(name) || name === location.previousNode?.value)
      .map(([name, spec], index) => ({
        kind: 'field' as const,
        label: name,
        description: spec.label,
        detail: describeType(spec),
        documentation: spec.description,
        insertSnippet: hasColon ? JSON.stringify(name) : `${JSON.stringify(name)}: ${valueSnippet(spec)}`,
        replace: typed,
        sortText: `${spec.required ? 0 : 1}${String(index).padStart(5, '0')}`,
      }));
  }
  const name = String(path[2]);
  const spec = Object.hasOwn(definition.fields, name) ? definition.fields[name] : undefined;
  const atValue =
    (path.length === 3 && !location.isAtPropertyKey && spec?.type === 'category') ||
    (path.length === 4 && typeof path[3] === 'number' && spec?.type === 'categories');
  if (!atValue || !isCategoryField(spec)) return [];
  return Object.keys(spec.values).map((key, index) => ({
    kind: 'category' as const,
    label: categoryKeyLiteral(key),
    description: spec.values[key],
    detail: `${spec.label || name}: ${spec.values[key]}`,
    insertSnippet: escapeSnippet(categoryKeyLiteral(key)),
    replace: typed,
    sortText: String(index).padStart(5, '0'),
  }));
}

/** The string or literal the cursor is in (to be replaced whole), if any. */
function stringOrLiteralAt(node: Node | undefined, offset: number): Span | undefined {
  // getLocation reports a member name as a node of type 'property'.
  if (!node || !['property', 'string', 'number', 'boolean', 'null'].includes(node.type)) return undefined;
  return offset >= node.offset && offset <= node.offset + node.length ? { offset: node.offset, length: node.length } : undefined;
}

function valueSnippet(spec: TopicField): string {
  switch (spec.type) {
    case 'text':
      return '"$1"';
    case 'number':
    case 'integer':
      return `\${1:${spec.minimum ?? 0}}`;
    case 'boolean':
      return '${1|true,false|}';
    case 'date':
      return '"${1:YYYY-MM-DD}"';
    case 'datetime':
      return '"${1:YYYY-MM-DD HH:MM:SS}"';
    case 'category':
      return choice(spec);
    case 'categories':
      return `[${choice(spec)}]`;
    case 'gallery':
      return '${1:null}';
  }
}

function choice(spec: CategoryField): string {
  const keys = Object.keys(spec.values).map((key) => categoryKeyLiteral(key).replace(/[\\,|$}]/g, (char) => `\\${char}`));
  return keys.length <= 20 ? `\${1|${keys.join(',')}|}` : `\${1:${keys[0]}}`;
}

function escapeSnippet(text: string): string {
  return text.replace(/[\\$}]/g, (char) => `\\${char}`);
}

/** "integer, 1 to 10, required": the field's type (its name in the definition) and its limits, for completions and hovers. */
export function describeType(spec: TopicField): string {
  const parts: string[] = [spec.type];
  if ((spec.type === 'number' || spec.type === 'integer') && (spec.minimum !== undefined || spec.maximum !== undefined)) {
    parts.push(
      l10n.t({
        message: '{0} to {1}',
        args: [spec.minimum ?? '…', spec.maximum ?? '…'],
        comment: ['The range of a number field, e.g. "1 to 10"; "…" stands for a limit the field does not have.'],
      }),
    );
  }
  if (spec.type === 'text' && spec.maxLength !== undefined) parts.push(l10n.t('at most {0} characters', spec.maxLength));
  if (spec.required) parts.push(l10n.t({ message: 'required', args: [], comment: ['Said of a topic field every spot of the topic must carry.'] }));
  return parts.join(', ');
}

export interface TopicHover {
  span: Span;
  /** Markdown. */
  markdown: string;
}

export function topicHover(text: string, offset: number, catalog: TopicCatalog): TopicHover | undefined {
  const location = getLocation(text, offset);
  const path = location.path;
  const node = location.previousNode;
  if (path[0] !== 'data' || path[1] !== 'attributes' || path.length < 3 || !node) return undefined;
  if (offset < node.offset || offset > node.offset + node.length) return undefined;
  const { definition } = documentTopic(text, catalog);
  const name = String(path[2]);
  if (!definition || KNOWN_SPOT_MEMBERS.includes(name) || !Object.hasOwn(definition.fields, name)) return undefined;
  const spec = definition.fields[name];
  const lines = [`**${escapeMarkdown(spec.label || name)}** ${inlineCode(name)} · ${describeType(spec)} · ${escapeMarkdown(topicTitle(definition))}`];
  if (spec.description) lines.push(escapeMarkdown(spec.description));
  if (isCategoryField(spec)) {
    const onValue = !location.isAtPropertyKey && (path.length === 3 || typeof path[3] === 'number');
    const key = onValue ? categoryKeyOf(spec, node.value) : undefined;
    if (key !== undefined) lines.push(`${inlineCode(categoryKeyLiteral(key))} = **${escapeMarkdown(spec.values[key])}**`);
    lines.push(
      l10n.t(
        'Values: {0}',
        Object.keys(spec.values)
          .map((value) => `\`${categoryKeyLiteral(value)}\` ${escapeMarkdown(spec.values[value])}`)
          .join(' · '),
      ),
    );
  }
  return { span: { offset: node.offset, length: node.length }, markdown: lines.join('\n\n') };
}

export interface TopicInlayHint {
  /** Where the hint goes: right after the field name or the category key. */
  offset: number;
  label: string;
  kind: 'field' | 'category';
}

/** Labels after each fld_ name the topic defines and after each category key, for documents of a defined topic. */
export function topicInlayHints(text: string, catalog: TopicCatalog): TopicInlayHint[] {
  const { layout, definition } = documentTopic(text, catalog);
  if (!definition) return [];
  return layout.members.flatMap((member) => hintsOf(text, member, definition));
}

function hintsOf(text: string, member: ReturnType<typeof documentTopic>['layout']['members'][number], definition: TopicDefinition): TopicInlayHint[] {
  const spec = Object.hasOwn(definition.fields, member.name) ? definition.fields[member.name] : undefined;
  if (!spec) return [];
  const hints: TopicInlayHint[] = [];
  if (TOPIC_FIELD_NAME.test(member.name) && spec.label) hints.push({ offset: member.key.offset + member.key.length, label: spec.label, kind: 'field' });
  if (isCategoryField(spec)) {
    for (const span of spec.type === 'categories' ? (member.items ?? []) : [member.value]) {
      const key = categoryKeyOf(spec, valueOf(text, { value: span }));
      if (key !== undefined && spec.values[key]) hints.push({ offset: span.offset + span.length, label: spec.values[key], kind: 'category' });
    }
  }
  return hints;
}
