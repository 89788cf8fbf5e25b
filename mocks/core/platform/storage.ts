/** Receives one stored object chunk by chunk; nothing is visible until close() resolves. */
export interface StorageWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  /** Throws away what was written so far. */
  abort(): Promise<void>;
}

/**
 * Where uploaded and fetched audio bytes live. The core only sees this port: the Node server injects
 * a temporary-directory storage so uploads stay off the JS heap; in-process and MSW mocks keep bytes
 * in memory.
 */
export interface Storage {
  create(id: string): StorageWriter;
  read(id: string): Promise<Uint8Array | undefined>;
  remove(id: string): Promise<void>;
  /** Removes every object (a mock reset). */
  clear(): Promise<void>;
  /** Releases the storage itself (temp directory, ...). */
  close(): Promise<void>;
}

/**
 * In-memory storage, the default of the in-process and MSW mocks.
 *
 * @example
 * const service = createMockService({ storage: memoryStorage() });
 */
export function memoryStorage(): Storage {
  const objects = new Map<string, Uint8Array>();
  return {
    create(id) {
      let parts: Uint8Array[] = [];
      return {
        write: async (chunk) => {
          parts.push(chunk.slice());
        },
        close: async () => {
          objects.set(id, concat(parts));
          parts = [];
        },
        abort: async () => {
          parts = [];
        },
      };
    },
    read: async (id) => objects.get(id),
    remove: async (id) => {
      objects.delete(id);
    },
    clear: async () => objects.clear(),
    close: async () => objects.clear(),
  };
}

/** Joins byte chunks into one array. */
export function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
