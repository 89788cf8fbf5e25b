/**
 * Precompiles every validator the kit uses (request bodies, query parameters, JSON responses) into
 * standalone code with ajv, so that neither the mock nor the conformance suite imports or runs the ajv
 * compiler at run time: importing ajv and compiling the document cost the mock ~300 ms of startup.
 *
 * The keys must match those `openapi/validate.ts` asks for (`plain <pointer>` / `coerce <pointer>`); the
 * walk below mirrors `openapi/document-index.ts` ($ref resolution that keeps pointers).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

const docId = 'voice-service.yaml';
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const child = (pointer, key) => `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
const refTo = (pointer) => ({ $ref: `${docId}#${pointer.split('/').map(encodeURIComponent).join('/')}` });

function resolver(doc) {
  const resolve = (located) => {
    let current = located;
    for (let hops = 0; hops < 10; hops++) {
      const ref = current.node.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/')) return current;
      let node = doc;
      for (const raw of ref.slice(2).split('/')) {
        node = isObject(node) ? node[raw.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
      }
      if (!isObject(node)) return current;
      current = { node, pointer: ref.slice(1) };
    }
    return current;
  };
  const at = (located, key) => {
    const node = located.node[key];
    return isObject(node) ? resolve({ node, pointer: child(located.pointer, key) }) : undefined;
  };
  return { resolve, at };
}

/** Every (key, schema, coerce) the validators of `openapi/validate.ts` can ask for, in document order. */
export function validatorSchemas(doc) {
  const { resolve, at } = resolver(doc);
  const out = new Map();
  const jsonSchemaOf = (located) => {
    const content = located && at(located, 'content');
    const json = content && at(content, 'application/json');
    return json?.node.schema ? child(json.pointer, 'schema') : undefined;
  };
  const paths = at({ node: doc, pointer: '' }, 'paths');
  for (const path of Object.keys(paths?.node ?? {})) {
    const item = at(paths, path);
    for (const method of methods) {
      const op = item && at(item, method);
      if (!op || typeof op.node.operationId !== 'string') continue;
      const body = jsonSchemaOf(at(op, 'requestBody'));
      if (body) out.set(`plain ${body}`, { schema: refTo(body), coerce: false });
      const params = (Array.isArray(op.node.parameters) ? op.node.parameters : []).flatMap((entry, index) => {
        if (!isObject(entry)) return [];
        const param = resolve({ node: entry, pointer: `${op.pointer}/parameters/${index}` });
        const { name, required } = param.node;
        if (param.node.in !== 'query' || typeof name !== 'string') return [];
        return [{ name, required: required === true, pointer: child(param.pointer, 'schema') }];
      });
      if (params.length > 0) {
        const schema = {
          type: 'object',
          properties: Object.fromEntries(params.map((param) => [param.name, refTo(param.pointer)])),
          required: params.filter((param) => param.required).map((param) => param.name),
        };
        out.set(`coerce ${op.pointer}/parameters?in=query`, { schema, coerce: true });
      }
      const responses = at(op, 'responses');
      for (const status of Object.keys(responses?.node ?? {})) {
        const pointer = jsonSchemaOf(at(responses, status));
        if (pointer) out.set(`plain ${pointer}`, { schema: refTo(pointer), coerce: false });
      }
    }
  }
  return out;
}

// ajv's standalone code `require`s a few run-time helpers; the generated file must not (ESM, and
// browsers via MSW), so each is replaced by a small local equivalent written here. The length in code
// points (`maxLength` of a 5,000-character text, on every synthesis request): a text without a
// surrogate pair is its `length`, which the regular expression tells at once for a Latin-1 text
// (~0.03 µs, where counting by the string's iterator took ~21 µs).
const helpers = {
  'ajv/dist/runtime/ucs2length': `(() => {
  const pair = /[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]/;
  return { default: (text) => { if (!pair.test(text)) return text.length; let n = 0; for (const _ of text) n++; return n; } };
})()`,
};

function standalone(doc, entries, coerceTypes) {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes,
    validateSchema: false,
    code: { source: true, esm: true },
  });
  ajv.addFormat('binary', true);
  // A RegExp (not a function) so that the format compiles into the standalone code.
  ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]*$/i);
  ajv.addSchema(doc, docId);
  const names = {};
  for (const [index, [key, { schema }]] of entries.entries()) {
    const name = `${coerceTypes ? 'coerce' : 'plain'}${index}`;
    ajv.addSchema(schema, name);
    names[name] = { name, key };
  }
  let code = standaloneCode(ajv, Object.fromEntries(Object.keys(names).map((name) => [name, name])));
  code = code.replace(/require\("([^"]+)"\)/g, (_, module) => {
    const helper = helpers[module];
    if (!helper) throw new Error(`standalone validators need ${module}: add a local helper for it`);
    return `(${helper})`;
  });
  return { code, names: Object.values(names) };
}

/**
 * The text of `openapi/generated/validators.ts`, deterministic for a given document. `extra` are
 * schemas of the kit's own that are not in the document (the mock's snapshot), by key.
 */
export function validatorsFile(header, doc, extra = {}) {
  const all = [
    ...validatorSchemas(doc),
    ...Object.entries(extra).map(([key, schema]) => [key, { schema, coerce: false }]),
  ];
  const parts = [false, true].map((coerce) =>
    standalone(
      doc,
      all.filter(([, entry]) => entry.coerce === coerce),
      coerce,
    ),
  );
  // The two ajv instances number their functions alike, so each one's code lives in its own scope.
  const scopes = parts.map(
    ({ code, names }) =>
      `(() => {\n${code.replace(/^"use strict";/, '').replace(/export const (\w+) = /g, 'const $1 = ')}\nreturn { ${names
        .map(({ name, key }) => `${JSON.stringify(key)}: ${name}`)
        .join(', ')} };\n})()`,
  );
  return `${header}// @ts-nocheck — ajv's standalone code, checked by the validate.ts tests instead.
import type { ErrorObject } from 'ajv/dist/2020.js';

/** A precompiled validator: returns whether the value is valid and leaves ajv's errors on \`.errors\`. */
export interface PrecompiledValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * Every validator of the document keyed as \`openapi/validate.ts\` looks them up.
 *
 * @example
 * import { validators } from './generated/validators.js';
 * validators['plain /paths/~1v1~1voice~1save/post/requestBody/content/application~1json/schema']?.({});
 */
export const validators: { readonly [key: string]: PrecompiledValidator } = {
  ...${scopes[0]},
  ...${scopes[1]},
};
`;
}
