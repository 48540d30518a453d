// Text from files and servers inside Markdown (hovers, tree items' tooltips): shown as written,
// never as Markdown of its own (a link, an image that loads from anywhere, emphasis).
import * as assert from 'node:assert/strict';
import { escapeMarkdown, inlineCode } from '../../src/core/text/markdown';
import { parseTopicDefinition, topicHover, type TopicCatalog } from '../../src/core/topics';

describe('text inside Markdown', () => {
  it('inlineCode: a fence longer than any run of backticks inside, spaced when the text starts or ends with one, one line', () => {
    assert.equal(inlineCode('fld_7_1'), '`fld_7_1`');
    assert.equal(inlineCode('a`b'), '``a`b``');
    assert.equal(inlineCode('``x'), '``` ``x ```');
    assert.equal(inlineCode('x`'), '`` x` ``');
    assert.equal(inlineCode('two\nlines\r\nthree'), '`two lines three`');
    assert.equal(inlineCode(''), '` `');
  });

  it('escapeMarkdown: emphasis, code, links, images, HTML and line-start markers shown as characters', () => {
    assert.equal(escapeMarkdown('*a* _b_ `c` [d](e) ![f](g) <h> | 1.5 # i'), '\\*a\\* \\_b\\_ \\`c\\` \\[d\\](e) !\\[f\\](g) \\<h\\> \\| 1.5 # i');
    assert.equal(escapeMarkdown('# title\n- item\n2. item'), '\\# title\n\\- item\n2\\. item');
  });

  it("a topic field's name with backticks stays inside its code span in the hover: no image loads from a name", () => {
    const name = 'fld_7_1` ![p](https://attacker.example/t.png) `y';
    const definition = parseTopicDefinition(JSON.stringify({ topic_id: 7, name: 'Trees', fields: { [name]: { label: 'Height', type: 'text' } } })).definition!;
    const catalog: TopicCatalog = new Map([[7, definition]]);
    const text = JSON.stringify({ data: { type: 'spots', attributes: { topic_id: 7, [name]: 'x' } } }, null, 2);
    const hover = topicHover(text, text.indexOf(JSON.stringify(name)) + 2, catalog)!;
    assert.ok(hover.markdown.startsWith(`**Height** ${inlineCode(name)} · `), hover.markdown);
    assert.ok(inlineCode(name).startsWith('``'));
  });
});
