import type { OperationId } from '../../../openapi/contract.js';

/** One line of GET /__mock/requests. */
export interface RequestLogEntry {
  at: number;
  method: string;
  path: string;
  key: string | null;
  status: number;
  operationId: OperationId | null;
}

/**
 * The most recent requests, oldest first, bounded so a long-running mock does not grow.
 *
 * @example
 * log.add({ at, method: 'GET', path: '/v1/voice/list', key: 'mock-key', status: 200, operationId: 'listVoices' });
 */
export class RequestLog {
  // A ring: adding to a full log overwrites the oldest entry instead of shifting the whole array,
  // which every request did before.
  private entries: RequestLogEntry[] = [];
  private oldest = 0;

  constructor(private readonly capacity: number) {}

  add(entry: RequestLogEntry): void {
    if (this.capacity === 0) return;
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
      return;
    }
    this.entries[this.oldest] = entry;
    this.oldest = (this.oldest + 1) % this.capacity;
  }

  list(): RequestLogEntry[] {
    const ordered = [...this.entries.slice(this.oldest), ...this.entries.slice(0, this.oldest)];
    return ordered.map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.entries = [];
    this.oldest = 0;
  }
}
