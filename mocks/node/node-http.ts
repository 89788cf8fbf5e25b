// Kept in the declaration file, which names Node's types: a consumer's TypeScript then loads
// @types/node for it even where its "types" list leaves @types/node out (TypeScript 6's default).
/// <reference types="node" preserve="true" />
/**
 * node:http's functions, taken without an ES `import` of it. An ES import of a built-in module reads
 * every one of its exports to build the module's namespace, and node:http's `WebSocket`,
 * `CloseEvent` and `MessageEvent` are getters that load undici (Fetch's implementation, which the
 * mock's list path never uses): that compile was the largest piece of a fresh mock's start.
 * `process.getBuiltinModule` hands out the module object and reads no export until asked.
 */
const http = process.getBuiltinModule('node:http');

export const createServer: typeof http.createServer = http.createServer;
export const STATUS_CODES: typeof http.STATUS_CODES = http.STATUS_CODES;
