// Misplaced spots: a topic definition's area (its bbox read and checked, one across the
// antimeridian included), the warning on a spot outside it, the "probably swapped" words and the
// quick fix that swaps latitude and longitude (in documents of every layout, formatting kept), the
// same words for a latitude out of range without an area, and the area's warning on rows of tables.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyEdits } from 'jsonc-parser';
import { insideBbox, judgeArea, swapMakesPosition, swapWouldFix, type Bbox } from '../../src/core/geo/position';
import {
  checkSpotAgainstTopic,
  parseTopicDefinition,
  topicQuickFixes,
  TOPIC_RULES,
  type TopicCatalog,
  type TopicDefinition,
  type TopicProblem,
} from '../../src/core/topics';
import { parseSpotText } from '../../src/core/documents/parseSpotText';
import { SPOT_RULES } from '../../src/core/documents/problems';
import { checkRows, openMappedTable, parseMapping, type CheckedRow } from '../../src/core/rows';
import { topicDefinitionJsonSchema } from '../../src/core/topics/topicJsonSchema';

/** Austria, roughly. */
const AUSTRIA: Bbox = [9.5, 46.3, 17.2, 49.1];
/** Fiji's waters, across the antimeridian. */
const FIJI: Bbox = [176, -21, -178, -12];

function definition(bbox: Bbox | undefined, topicId = 7): TopicDefinition {
  const parsed = parseTopicDefinition(JSON.stringify({ topic_id: topicId, name: 'Trail observations', ...(bbox ? { area: { bbox } } : {}), fields: {} }));
  assert.deepEqual(parsed.problems, []);
  return parsed.definition!;
}

const catalog: TopicCatalog = new Map([
  [7, definition(AUSTRIA)],
  [9, definition(FIJI, 9)],
  [10, definition(undefined, 10)],
]);

function spotText(latitude: number, longitude: number, topicId = 7): string {
  return JSON.stringify({ data: { type: 'spots', attributes: { topic_id: topicId, source_id: 's-1', latitude, longitude } } }, null, 2);
}

const marked = (text: string, problem: { offset: number; length: number }) => text.slice(problem.offset, problem.offset + problem.length);

/** The text after the quick fixes of a rule, offered at the latitude. */
function fixed(text: string, rule: string, expectTitle = /^Swap latitude and longitude/): string | undefined {
  const fixes = topicQuickFixes(text, rule, text.indexOf('latitude'), catalog);
  if (fixes.length === 0) return undefined;
  assert.equal(fixes.length, 1);
  assert.match(fixes[0].title, expectTitle);
  assert.equal(fixes[0].preferred, true);
  return applyEdits(text, fixes[0].edits);
}

describe('topic areas and swapped coordinates', () => {
  describe('the policy (core/geo/position)', () => {
    it('inside and outside a bbox, edges included', () => {
      assert.equal(insideBbox(AUSTRIA, 48.2, 16.37), true);
      assert.equal(insideBbox(AUSTRIA, 46.3, 9.5), true, 'the south-west corner');
      assert.equal(insideBbox(AUSTRIA, 49.1, 17.2), true, 'the north-east corner');
      assert.equal(insideBbox(AUSTRIA, 52.5, 13.4), false, 'Berlin: north of it');
      assert.equal(insideBbox(AUSTRIA, 48.2, 17.3), false, 'east of it');
      assert.equal(insideBbox(AUSTRIA, 46.2, 12), false, 'south of it');
      assert.equal(insideBbox(AUSTRIA, 95, 12), false, 'no position at all');
    });

    it('reads a bbox whose west is larger than its east as crossing the antimeridian', () => {
      assert.equal(insideBbox(FIJI, -18, 178), true);
      assert.equal(insideBbox(FIJI, -18, -179), true);
      assert.equal(insideBbox(FIJI, -18, 180), true);
      assert.equal(insideBbox(FIJI, -18, -180), true, '-180 is the meridian 180 is');
      assert.equal(insideBbox(FIJI, -18, 0), false, 'not the 354 degrees between east and west');
      assert.equal(insideBbox(FIJI, -18, 175), false);
      assert.equal(insideBbox(FIJI, -18, -177), false);
      assert.equal(insideBbox([-180, -10, -170, 10], 0, 180), true, '180 is the west edge -180');
    });

    it('suggests a swap only when swapping brings the spot inside, or makes a position of it', () => {
      assert.equal(judgeArea(AUSTRIA, 16.37, 48.2), 'swappedInside');
      assert.equal(judgeArea(AUSTRIA, 48.2, 16.37), 'inside');
      assert.equal(judgeArea(AUSTRIA, 52.5, 13.4), 'outside', 'swapped it is not inside either');
      assert.equal(judgeArea(FIJI, 178.4, -18.1), 'swappedInside');
      assert.equal(swapMakesPosition(123, 1), true);
      assert.equal(swapMakesPosition(123, 100), false, 'swapped the latitude is out of range too');
      assert.equal(swapMakesPosition(48.2, 16.37), false, 'already a position');
      assert.equal(swapWouldFix(16.37, 48.2), false, 'no area: a position is left alone');
      assert.equal(swapWouldFix(16.37, 48.2, AUSTRIA), true);
      assert.equal(swapWouldFix(52.5, 13.4, AUSTRIA), false);
      assert.equal(swapWouldFix(165, 48, AUSTRIA), true, 'not a position: swapping makes one');
    });
  });

  describe('the area of a topic definition', () => {
    it('is read, and a west larger than east is no problem', () => {
      assert.deepEqual(catalog.get(7)?.area, { bbox: [...AUSTRIA] });
      assert.deepEqual(catalog.get(9)?.area, { bbox: [...FIJI] });
    });

    it('reports a bbox that is not four numbers, out of range, or has its south north of its north, on its characters', () => {
      const cases: Array<[unknown, string[]]> = [
        [[9.5, 46.3, 17.2], ['[ area.bbox must be four numbers: [west, south, east, north] in degrees (WGS 84).']],
        [[9.5, 46.3, 17.2, 49.1, 3], ['[ area.bbox must be four numbers: [west, south, east, north] in degrees (WGS 84).']],
        ['Austria', ['"Austria" area.bbox must be a list.']],
        [[9.5, '46.3', 17.2, 49.1], ['"46.3" area.bbox.1 must be a number.']],
        [
          [190, 46.3, 17.2, 95],
          ['190 west must be a number between -180 and 180 (degrees).', '95 north must be a number between -90 and 90 (degrees).'],
        ],
        [[9.5, 49.1, 17.2, 46.3], ["49.1 The bbox's south (49.1) is north of its north (46.3): a bbox is [west, south, east, north]."]],
      ];
      for (const [bbox, expected] of cases) {
        const text = JSON.stringify({ topic_id: 7, area: { bbox }, fields: {} }, null, 2);
        const parsed = parseTopicDefinition(text);
        assert.equal(parsed.definition, undefined, JSON.stringify(bbox));
        assert.deepEqual(
          parsed.problems.map((problem) => `${marked(text, problem)} ${problem.message}`),
          expected,
          JSON.stringify(bbox),
        );
        for (const problem of parsed.problems) assert.ok(([TOPIC_RULES.definitionSchema, TOPIC_RULES.definitionRule] as string[]).includes(problem.rule));
      }
      const unknown = JSON.stringify({ topic_id: 7, area: { bbox: AUSTRIA, polygon: [] }, fields: {} });
      assert.deepEqual(
        parseTopicDefinition(unknown).problems.map((problem) => problem.message),
        ['polygon is not a member of area.'],
      );
    });

    it("is in the editor JSON Schema with each edge's range", () => {
      const schema = topicDefinitionJsonSchema() as {
        properties: {
          area: {
            properties: { bbox: { items: Array<{ minimum: number; maximum: number }>; minItems: number; maxItems: number } };
            additionalProperties: boolean;
          };
        };
      };
      const bbox = schema.properties.area.properties.bbox;
      assert.deepEqual(
        bbox.items.map((item) => [item.minimum, item.maximum]),
        [
          [-180, 180],
          [-90, 90],
          [-180, 180],
          [-90, 90],
        ],
      );
      assert.equal(bbox.minItems, 4);
      assert.equal(bbox.maxItems, 4);
      assert.equal(schema.properties.area.additionalProperties, false);
    });
  });

  describe("a spot against its topic's area", () => {
    const areaProblems = (text: string): TopicProblem[] => checkSpotAgainstTopic(text, catalog).filter((problem) => problem.rule === TOPIC_RULES.outsideArea);

    it('says nothing of a spot inside, or of a topic without an area', () => {
      assert.deepEqual(areaProblems(spotText(48.2, 16.37)), []);
      assert.deepEqual(areaProblems(spotText(-18, 179.5, 9)), []);
      assert.deepEqual(areaProblems(spotText(52.5, 13.4, 10)), []);
    });

    it('warns on the latitude of a spot outside', () => {
      const text = spotText(52.5, 13.4);
      const [problem, ...more] = areaProblems(text);
      assert.deepEqual(more, []);
      assert.equal(problem.severity, 'warning');
      assert.equal(problem.pointer, '/data/attributes/latitude');
      assert.equal(marked(text, problem), '52.5');
      assert.equal(
        problem.message,
        'latitude 52.5, longitude 13.4 is outside the area of topic 7 (Trail observations) (west 9.5, south 46.3, east 17.2, north 49.1).',
      );
      assert.equal(fixed(text, TOPIC_RULES.outsideArea), undefined, 'no swap offered when it does not bring the spot in');
      const fiji = areaProblems(spotText(-18, 0, 9));
      assert.match(fiji[0].message, /\(west 176, south -21, east -178, north -12 \(across the antimeridian\)\)\.$/);
    });

    it('says when swapping would bring it inside, and the quick fix swaps them', () => {
      const text = spotText(16.37, 48.2);
      const [problem] = areaProblems(text);
      assert.equal(
        problem.message,
        'latitude 16.37, longitude 48.2 is outside the area of topic 7 (Trail observations) (west 9.5, south 46.3, east 17.2, north 49.1); swapped, it is inside: latitude and longitude are probably swapped.',
      );
      assert.equal(fixed(text, TOPIC_RULES.outsideArea), spotText(48.2, 16.37));
      // Near the antimeridian a swapped pair is no position (a latitude of 179.5): the base rule's
      // "probably swapped" says it, and its fix brings the spot in.
      const across = spotText(179.5, -18, 9);
      assert.deepEqual(areaProblems(across), []);
      assert.deepEqual(
        parseSpotText(across, { topics: catalog }).problems.map((problem) => problem.rule),
        [SPOT_RULES.swappedCoordinates],
      );
      const swapped = fixed(across, SPOT_RULES.swappedCoordinates)!;
      assert.equal(swapped, spotText(-18, 179.5, 9));
      assert.deepEqual(areaProblems(swapped), []);
    });

    it('leaves a latitude out of range to the base rules', () => {
      assert.deepEqual(areaProblems(spotText(165, 48.2)), []);
    });
  });

  describe('the swap quick fix keeps the document as written', () => {
    const layouts: Array<[string, string, string]> = [
      [
        'one line, no spaces',
        '{"data":{"type":"spots","attributes":{"topic_id":7,"source_id":"a","latitude":16.37,"longitude":48.2}}}',
        '{"data":{"type":"spots","attributes":{"topic_id":7,"source_id":"a","latitude":48.2,"longitude":16.37}}}',
      ],
      [
        'longitude first, numbers as written (trailing zeros, exponent)',
        '{ "data": { "type": "spots", "attributes": {\n  "longitude" :  4.82e1 ,\n  "topic_id": 7, "source_id": "a",\n  "latitude" : 16.3700\n} } }\n',
        '{ "data": { "type": "spots", "attributes": {\n  "longitude" :  16.3700 ,\n  "topic_id": 7, "source_id": "a",\n  "latitude" : 4.82e1\n} } }\n',
      ],
      [
        "tabs and CRLF, a byte-order mark's absence kept",
        '{\r\n\t"data": {\r\n\t\t"type": "spots",\r\n\t\t"attributes": {\r\n\t\t\t"topic_id": 7,\r\n\t\t\t"source_id": "a",\r\n\t\t\t"latitude": 16.37,\r\n\t\t\t"longitude": 48.2\r\n\t\t}\r\n\t}\r\n}',
        '{\r\n\t"data": {\r\n\t\t"type": "spots",\r\n\t\t"attributes": {\r\n\t\t\t"topic_id": 7,\r\n\t\t\t"source_id": "a",\r\n\t\t\t"latitude": 48.2,\r\n\t\t\t"longitude": 16.37\r\n\t\t}\r\n\t}\r\n}',
      ],
      [
        'a latitude nested elsewhere is not touched',
        '{"meta":{"latitude":1},"data":{"type":"spots","attributes":{"topic_id":7,"source_id":"a","latitude":16.37,"longitude":48.2}}}',
        '{"meta":{"latitude":1},"data":{"type":"spots","attributes":{"topic_id":7,"source_id":"a","latitude":48.2,"longitude":16.37}}}',
      ],
    ];
    for (const [name, before, after] of layouts) {
      it(name, () => {
        assert.equal(fixed(before, TOPIC_RULES.outsideArea), after);
      });
    }

    it('offers nothing when latitude or longitude is given twice, or is not a number', () => {
      assert.equal(
        fixed('{"data":{"type":"spots","attributes":{"topic_id":7,"latitude":16.37,"longitude":48.2,"latitude":16.37}}}', TOPIC_RULES.outsideArea),
        undefined,
      );
      assert.equal(fixed('{"data":{"type":"spots","attributes":{"topic_id":7,"latitude":"16.37","longitude":48.2}}}', TOPIC_RULES.outsideArea), undefined);
    });
  });

  describe('without an area: a latitude out of range that would be valid swapped', () => {
    it('is the range error saying they are probably swapped, under its own rule, with the quick fix', () => {
      const text = spotText(123.5, 16.3738, 10);
      const parsed = parseSpotText(text);
      assert.equal(parsed.document, undefined);
      assert.deepEqual(
        parsed.problems.map((problem) => [problem.rule, marked(text, problem), problem.severity, problem.message]),
        [[SPOT_RULES.swappedCoordinates, '123.5', 'error', 'latitude must be between -90 and 90; latitude and longitude are probably swapped.']],
      );
      assert.equal(fixed(text, SPOT_RULES.swappedCoordinates), spotText(16.3738, 123.5, 10));
    });

    it('stays the plain range error when swapping would not help', () => {
      const text = spotText(123.5, 100, 10);
      const parsed = parseSpotText(text);
      assert.deepEqual(
        parsed.problems.map((problem) => [problem.rule, problem.message]),
        [[undefined, 'latitude must be between -90 and 90.']],
      );
      assert.equal(fixed(text, SPOT_RULES.swappedCoordinates), undefined);
    });
  });

  describe("rows of a table against their topic's area", () => {
    let dir: string;
    before(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'topic-area-rows-'));
    });
    after(() => fs.rm(dir, { recursive: true, force: true }));

    it('warn at the latitude cell of a row outside; the row is still imported', async () => {
      const table = path.join(dir, 'trees.csv');
      await fs.writeFile(table, 'id,lat,lon\n1,48.2,16.37\n2,16.37,48.2\n3,52.5,13.4\n');
      const mappingPath = path.join(dir, 'trees.mapping.json');
      await fs.writeFile(mappingPath, JSON.stringify({ topic_id: 7, source_id: 'r-{id}', latitude: 'lat', longitude: 'lon', fields: {} }));
      const mapped = await openMappedTable(table, parseMapping(mappingPath, await fs.readFile(mappingPath, 'utf8')));
      assert.ok(mapped.mapping, JSON.stringify(mapped.problems));
      const rows: CheckedRow[] = [];
      for await (const row of checkRows(mapped.table, mapped.mapping, { topics: catalog })) rows.push(row);
      assert.deepEqual(
        rows.map((row) => [
          row.ok,
          row.findings.map(
            (finding) => `${finding.line}:${finding.column} ${finding.severity} ${finding.rule} ${finding.message.replace(/ \(west.*\)(;|\.$)/, '$1')}`,
          ),
        ]),
        [
          [true, []],
          [
            true,
            [
              '3:3 warning topic.outsideArea latitude 16.37, longitude 48.2 is outside the area of topic 7 (Trail observations); swapped, it is inside: latitude and longitude are probably swapped.',
            ],
          ],
          [true, ['4:3 warning topic.outsideArea latitude 52.5, longitude 13.4 is outside the area of topic 7 (Trail observations).']],
        ],
      );
    });
  });
});
