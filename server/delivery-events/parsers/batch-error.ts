/** A batch that cannot be read as a whole (a CSV without its header, JSON that does not parse): 400 with this message. */
export class BatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchError';
  }
}
