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
  private entries: RequestLogEntry[] = [];

  constructor(private readonly capacity: number) {}

  add(entry: RequestLogEntry): void {
    if (this.capacity === 0) return;
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  list(): RequestLogEntry[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.entries = [];
  }
}
