// Byte offsets (what the server's graph attributes hold: UTF-8 offsets into the document)
// to string indices (what VS Code's `TextDocument.positionAt` takes), and the reading of a
// graph node's location attributes. Plain TypeScript, no `vscode` import.

/** The UTF-16 index of the character that starts at UTF-8 byte `byteOffset` of `text` (the
 * next character when the offset falls inside one; the end when it is past the end). */
export function indexOfByteOffset(text: string, byteOffset: number): number {
  if (byteOffset <= 0) {
    return 0;
  }
  let bytes = 0;
  let index = 0;
  while (index < text.length && bytes < byteOffset) {
    const code = text.codePointAt(index) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code >= 0x10000 ? 2 : 1;
  }
  return index;
}

/** A byte range of the document: `end` is absent when the node names only where it starts. */
export interface ByteRange {
  start: number;
  end?: number;
}

function offset(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\s*\d+\s*$/.test(value)) {
    return undefined;
  }
  return Number.parseInt(value, 10);
}

/**
 * The range a graph node points at, from its attributes: `data-start` (and `data-end`),
 * `data-offset`, or `data-range` written `start..end`, `start:end`, `start-end` or
 * `start,end`. `undefined` when none is readable.
 */
export function nodeRange(attributes: {
  start?: string | null;
  end?: string | null;
  offset?: string | null;
  range?: string | null;
}): ByteRange | undefined {
  const range = attributes.range?.match(/^\s*(\d+)\s*(?:\.\.=?|:|-|,)\s*(\d+)\s*$/);
  if (range) {
    const [a, b] = [Number.parseInt(range[1], 10), Number.parseInt(range[2], 10)];
    return { start: Math.min(a, b), end: Math.max(a, b) };
  }
  const start = offset(attributes.start) ?? offset(attributes.offset) ?? offset(attributes.range);
  if (start === undefined) {
    return undefined;
  }
  const end = offset(attributes.end);
  return end !== undefined && end >= start ? { start, end } : { start };
}
