/**
 * A state directory the mock will not start on (damaged, written by a newer voice-kit, in use by
 * another mock, or unusable on this Node): the message names the file and what to do. The CLI prints
 * it and exits 2; it never starts an empty mock in its place.
 */
export class StateDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateDirError';
  }
}
