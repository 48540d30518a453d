// The strings a source file localises, found with TypeScript's own parser: each `l10n.t(…)` and
// `vscode.l10n.t(…)` call, keyed as @vscode/l10n looks them up at run time (the message, or
// "message/comment" when the call has a comment), and each call whose message is not a literal.
// @vscode/l10n-dev's export finds the same keys (test/unit/checkL10n.test.ts compares the two) but
// compiles its tree-sitter queries anew for every file: 16 s for this project's src/, against 0.8 s here.
const ts = require('typescript');

/** `l10n.t` or `<anything>.l10n.t`: the extension's vscode.l10n and the core's l10n. */
function isL10nT(callee) {
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 't') return false;
  const owner = callee.expression;
  if (ts.isIdentifier(owner)) return owner.text === 'l10n';
  return ts.isPropertyAccessExpression(owner) && owner.name.text === 'l10n';
}

/** The text of a string literal or a template without substitutions; undefined for anything else. */
function literalText(node) {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

/** `{ message: '…', comment: '…' | ['…', …] }`: its message and comment, or undefined when either is not literal. */
function messageObject(node) {
  if (!node || !ts.isObjectLiteralExpression(node)) return undefined;
  const property = (name) =>
    node.properties.find((p) => ts.isPropertyAssignment(p) && p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name);
  const message = literalText(property('message')?.initializer);
  if (message === undefined) return undefined;
  const commentNode = property('comment')?.initializer;
  if (!commentNode) return { message, comment: [] };
  const single = literalText(commentNode);
  if (single !== undefined) return { message, comment: [single] };
  if (!ts.isArrayLiteralExpression(commentNode)) return undefined;
  const comment = commentNode.elements.map(literalText);
  return comment.every((part) => part !== undefined) ? { message, comment } : undefined;
}

/**
 * The localised strings of one file (key → message, or { message, comment } for a commented one,
 * as l10n-dev's export writes them) and the lines (1-based) of calls whose message is not a literal.
 */
function l10nStrings(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const strings = {};
  const computed = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && isL10nT(node.expression)) {
      const [first] = node.arguments;
      const plain = literalText(first);
      const object = plain === undefined ? messageObject(first) : undefined;
      if (plain !== undefined) strings[plain] = plain;
      else if (object && object.comment.length > 0) strings[`${object.message}/${object.comment.join('')}`] = object;
      else if (object) strings[object.message] = object.message;
      else computed.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    // l10n.t`…` is a form the runtime knows too; this project writes calls, so the check can see them.
    if (ts.isTaggedTemplateExpression(node) && isL10nT(node.tag)) computed.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { strings, computed };
}

module.exports = { l10nStrings };
