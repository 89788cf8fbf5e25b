/**
 * Test support: the OpenAPI document parsed from the YAML source (not from generated/, so the tests
 * check the source of truth itself), plus small helpers to walk it.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked dynamically by tests.
export type Node = any;

/** Freezes `node` and everything under it. */
function deepFreeze<T>(node: T): T {
  if (node && typeof node === 'object' && !Object.isFrozen(node)) {
    Object.freeze(node);
    for (const value of Object.values(node)) deepFreeze(value);
  }
  return node;
}

/**
 * The parsed voice-service.yaml, frozen: the test files that read it share one copy per worker (and
 * run in any order), so a test that sorted or edited it in place would change what the next one reads.
 */
export const document: Node = deepFreeze(
  parse(readFileSync(new URL('../voice-service.yaml', import.meta.url), 'utf8')),
);

/** Follows internal `$ref`s ('#/components/...') until a node without one. */
export function deref(node: Node): Node {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    const parts: string[] = current.$ref.slice(2).split('/');
    current = parts.reduce<Node>(
      (at, part) => at?.[part.replaceAll('~1', '/').replaceAll('~0', '~')],
      document,
    );
  }
  return current;
}

/** Every operation: its id, method, path and (dereferenced) node. */
export function operations(): { operationId: string; method: string; path: string; op: Node }[] {
  const list = [];
  for (const [path, item] of Object.entries<Node>(document.paths)) {
    for (const [method, op] of Object.entries<Node>(item)) {
      list.push({ operationId: op.operationId, method: method.toUpperCase(), path, op });
    }
  }
  return list;
}

/** One operation by operationId. */
export function operation(operationId: string): Node {
  const found = operations().find((entry) => entry.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found.op;
}

/** The named examples (or the single example) of a response's application/json content. */
export function jsonExamples(response: Node): Record<string, unknown> {
  const media = deref(response)?.content?.['application/json'];
  if (!media) return {};
  if (media.example !== undefined) return { example: media.example };
  return Object.fromEntries(
    Object.entries<Node>(media.examples ?? {}).map(([key, ex]) => [key, deref(ex).value]),
  );
}
