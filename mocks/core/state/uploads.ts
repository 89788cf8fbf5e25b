/** One stored upload (§2.2). `space` is organization + project + environment; bytes sit in Storage under objectKey. */
export interface UploadRecord {
  objectKey: string;
  fileName: string;
  size: number;
  scene: string;
  space: string;
  user: string;
  uploadedAt: number;
}

/**
 * The uploaded files, by object key. Uploads are never removed except by a reset.
 *
 * @example
 * const upload = uploads.find(key, caller.uploadSpace); // undefined for another space's key
 */
export class Uploads {
  private records = new Map<string, UploadRecord>();
  private sequence = 0;

  /** A number never used before by this state, for deriving the next object key. */
  nextSequence(): number {
    this.sequence += 1;
    return this.sequence;
  }

  add(record: UploadRecord): void {
    this.records.set(record.objectKey, record);
  }

  /** The upload, only when it belongs to the given space: a foreign key looks unknown (§2.2). */
  find(objectKey: string, space: string): UploadRecord | undefined {
    const record = this.records.get(objectKey);
    return record?.space === space ? record : undefined;
  }

  /** The last sequence handed out (kept by a durable store, so keys never repeat after a restart). */
  get lastSequence(): number {
    return this.sequence;
  }

  /** Any upload by its key, whatever its space: for the control API, never for callers of the service. */
  get(objectKey: string): UploadRecord | undefined {
    return this.records.get(objectKey);
  }

  /** Every upload, oldest first (for the state view). */
  all(): UploadRecord[] {
    return [...this.records.values()];
  }

  get count(): number {
    return this.records.size;
  }

  snapshot(): { sequence: number; records: UploadRecord[] } {
    return { sequence: this.sequence, records: [...this.records.values()].map((r) => ({ ...r })) };
  }

  restore(snapshot: { sequence: number; records: UploadRecord[] }): void {
    this.sequence = snapshot.sequence;
    this.records = new Map(snapshot.records.map((r) => [r.objectKey, { ...r }]));
  }
}
