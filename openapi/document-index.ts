/**
 * Navigation of the bundled OpenAPI document (generated/spec.ts): `$ref` resolution that keeps JSON
 * pointers, and the index of operations by operationId. Shared by the validators and the router.
 *
 * @example
 * const op = operations().get('listVoices'); // { method: 'GET', path: '/v1/voice/list', pointer, node }
 */
import { type Json, openapiDocument } from './generated/spec.js';

export type JsonObject = { readonly [key: string]: Json };
export interface Located {
  node: JsonObject;
  pointer: string;
}
export interface Operation extends Located {
  method: string;
  path: string;
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function child(pointer: string, key: string): string {
  return `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** Follows a node's internal `$ref` chain to the node it names, keeping the pointer of where it lives. */
export function resolve(located: Located): Located {
  let current = located;
  for (let hops = 0; hops < 10; hops++) {
    const ref = current.node.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return current;
    let node: Json | undefined = openapiDocument;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
      node = isObject(node) ? node[key] : undefined;
    }
    if (!isObject(node)) return current;
    current = { node, pointer: ref.slice(1) };
  }
  return current;
}

export function at(located: Located, key: string): Located | undefined {
  const node = located.node[key];
  return isObject(node) ? resolve({ node, pointer: child(located.pointer, key) }) : undefined;
}

let operationIndex: Map<string, Operation> | undefined;
export function operations(): Map<string, Operation> {
  if (operationIndex) return operationIndex;
  operationIndex = new Map();
  const paths = at({ node: openapiDocument, pointer: '' }, 'paths');
  for (const path of Object.keys(paths?.node ?? {})) {
    const item = paths && at(paths, path);
    for (const method of methods) {
      const op = item && at(item, method);
      const id = op?.node.operationId;
      if (op && typeof id === 'string') operationIndex.set(id, { ...op, method: method.toUpperCase(), path });
    }
  }
  return operationIndex;
}
