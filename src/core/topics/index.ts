// Topic definitions: what a project says about its topics' fields, and the rules, editor help and
// quick fixes that follow from them.
export * from './topicSchema';
export * from './topicProblem';
export * from './parseTopicDefinition';
export * from './topicFolder';
export { unreadableTopicFile, type TopicFileInput } from './readTopicFiles';
export * from './checkSpotAgainstTopic';
export * from './quickFixes';
export * from './editorAssist';
export * from './inferDefinition';
export * from './suggestMember';
export { categoryKeyOf, keyOfLabel, categoryKeyLiteral } from './categories';
export type { Span } from '../documents/locate';
