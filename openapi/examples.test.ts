// Prism and the docs answer from the document's examples, so each must validate against the schema
// beside it: media types, parameters and headers (`example`/`examples` next to `schema`) and schemas
// (`examples: [...]`).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { document, jsonExamples, type Node, operations } from './test/load-document.js';

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat('binary', true);
ajv.addFormat('uri', (value: string) => URL.canParse(value));
ajv.addSchema(document, 'doc');

interface ExampleCase {
  where: string;
  schemaPointer: string;
  value: unknown;
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Walks the document; `x-…` extensions are included so that x-router-responses are checked too. */
function collect(node: Node, pointer: string, out: ExampleCase[]): ExampleCase[] {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) collect(item, `${pointer}/${index}`, out);
    return out;
  }
  if (typeof node !== 'object' || node === null) return out;
  if (node.schema !== undefined) {
    const schemaPointer = `${pointer}/schema`;
    if (node.example !== undefined)
      out.push({ where: `${pointer}/example`, schemaPointer, value: node.example });
    for (const [name, example] of Object.entries<Node>(node.examples ?? {})) {
      out.push({ where: `${pointer}/examples/${escapePointer(name)}`, schemaPointer, value: example.value });
    }
  }
  if (Array.isArray(node.examples) && (node.type !== undefined || node.allOf !== undefined)) {
    for (const [index, value] of node.examples.entries()) {
      out.push({ where: `${pointer}/examples/${index}`, schemaPointer: pointer, value });
    }
  }
  for (const [key, value] of Object.entries<Node>(node))
    collect(value, `${pointer}/${escapePointer(key)}`, out);
  return out;
}

function check(schemaPointer: string, value: unknown): string[] {
  const fragment = schemaPointer.split('/').map(encodeURIComponent).join('/');
  const validate = ajv.compile({ $ref: `doc#${fragment}` });
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const cases = collect(document, '', []);

describe('examples of voice-service.yaml', () => {
  it('finds the examples (media types, parameters, headers, schemas)', () => {
    expect(cases.length).toBeGreaterThan(60);
    const kinds = new Set(cases.map((c) => /\/(content|parameters|headers|schemas)\//.exec(c.where)?.[1]));
    expect([...kinds].sort()).toEqual(['content', 'headers', 'parameters', 'schemas']);
  });

  it.each(cases.map((c) => [c.where, c] as const))('%s validates against its schema', (_where, c) => {
    expect(check(c.schemaPointer, c.value)).toEqual([]);
  });

  it('rejects a wrong value, so the check above can fail', () => {
    const errorSchema = '/components/schemas/ErrorEnvelope';
    expect(
      check(errorSchema, { error_code: 10001, error_message: 'x', succeed: false, data: {} }),
    ).not.toEqual([]);
    const listSchema = '/components/schemas/ListVoicesResponse';
    expect(check(listSchema, { error_code: 0, error_message: '', succeed: true, data: {} })).not.toEqual([]);
  });

  it('has a list example with several voices, for Prism', () => {
    const list = operations().find((o) => o.operationId === 'listVoices')?.op;
    const voices = Object.values<Node>(jsonExamples(list.responses['200'])).map((ex) => ex.data.list.length);
    expect(Math.max(...voices)).toBeGreaterThanOrEqual(3);
  });

  const errorStatuses = operations().flatMap(({ operationId, op }) =>
    Object.keys(op.responses)
      .filter((status) => !status.startsWith('2'))
      .map((status) => [operationId, status, op.responses[status]] as const),
  );
  it.each(errorStatuses)('%s %s has at least one error example', (_id, _status, response) => {
    const values = Object.values<Node>(jsonExamples(response));
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(value.succeed).toBe(false);
  });
});
