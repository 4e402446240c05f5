/*
 * Where each entry's compressed data sits in a zip archive, from its central directory (APPNOTE.TXT 4.3.12, 4.3.16):
 * what lets a large report inside a zip be inflated again, a piece at a time, as the parser reads it, instead of held.
 * The central directory is the archive's own index: its sizes are right even when the local header leaves them to a
 * data descriptor (general purpose bit 3), as streaming zip writers do.
 */

export interface ZipEntryData {
  /** Compression method: 0 stored, 8 deflate. */
  method: number;
  /** The entry's compressed bytes: [start, end) of the archive. */
  start: number;
  end: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes, followed by a comment of at most 65,535. */
const END_SEARCH_BYTES = 22 + 0xffff;
/** ZIP64 marks its sizes and offsets with all ones in the 32-bit fields: such archives are not read here. */
const ZIP64_MARK = 0xffffffff;

/**
 * The archive's entries, in the order of their local headers (the order a streaming reader meets them), or null when
 * the archive has no readable central directory (cut short, damaged, ZIP64, or bytes that do not add up).
 */
export function zipEntryData(archive: Uint8Array): ZipEntryData[] | null {
  const view = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const endAt = findEndRecord(view);
  if (endAt < 0) return null;
  const count = view.readUInt16LE(endAt + 10);
  const size = view.readUInt32LE(endAt + 12);
  let at = view.readUInt32LE(endAt + 16);
  if (size === ZIP64_MARK || at === ZIP64_MARK || at + size > endAt) return null;
  const entries: ZipEntryData[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > endAt || view.readUInt32LE(at) !== DIRECTORY_ENTRY) return null;
    const method = view.readUInt16LE(at + 10);
    const compressedSize = view.readUInt32LE(at + 20);
    const localAt = view.readUInt32LE(at + 42);
    if (compressedSize === ZIP64_MARK || localAt === ZIP64_MARK) return null;
    const start = localDataStart(view, localAt);
    if (start < 0 || start + compressedSize > view.length) return null;
    entries.push({ method, start, end: start + compressedSize });
    at += 46 + view.readUInt16LE(at + 28) + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
  }
  return entries.sort((a, b) => a.start - b.start);
}

function findEndRecord(view: Buffer): number {
  for (let at = view.length - 22; at >= Math.max(0, view.length - END_SEARCH_BYTES); at--)
    if (view.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  return -1;
}

/** Where an entry's data starts: after its local header, whose name and extra field may differ from the directory's. */
function localDataStart(view: Buffer, at: number): number {
  if (at + 30 > view.length || view.readUInt32LE(at) !== LOCAL_HEADER) return -1;
  return at + 30 + view.readUInt16LE(at + 26) + view.readUInt16LE(at + 28);
}
