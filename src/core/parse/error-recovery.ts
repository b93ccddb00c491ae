/**
 * Second chance for files a grammar gives up on. One construct a grammar does not know (tree-sitter-typescript and
 * newline-separated call signatures in an interface, for one) can turn the rest of a file into ERROR nodes, or make
 * the root itself an ERROR, and every definition after it is lost or misread. Here each large top-level ERROR region
 * (the whole file when the root is an ERROR) is cut at lines that start a new top-level statement (text at column 0)
 * and each piece is parsed on its own, with `includedRanges` so positions stay those of the whole file. Only broken
 * regions are re-parsed; a clean file costs nothing.
 */
import { Parser, type Node, type Range, type Tree } from 'web-tree-sitter';

/** ERROR regions shorter than this are left alone: the grammar's own recovery is good enough for them. */
const MIN_REGION_LINES = 8;
/** A pathological file is not worth thousands of small parses: beyond this, neighbouring pieces are joined. */
const MAX_PIECES = 300;
/** Lines that cannot start a statement: blank, indented, closing brackets, operators continuing an expression. */
const NOT_A_START = /^(\s|$|[)}\]>|&.,:;?+*=-])/;

export interface Recovered {
  /** Trees for the pieces; the caller queries them and must `delete()` them. */
  trees: Tree[];
  /** The root itself was an ERROR: its matches are guesses, and the pieces cover the whole file instead. */
  replacesRoot: boolean;
}

export function reparseBrokenRegions(tree: Tree, text: string): Recovered {
  const root = tree.rootNode;
  if (!root.hasError) return { trees: [], replacesRoot: false };
  const replacesRoot = root.type === 'ERROR';
  const lineOffsets = offsetsOfLines(text);
  const regions = replacesRoot ? [spanOf(root)] : errorRegions(root, text.length);
  const pieces: Range[] = [];
  for (const region of regions) pieces.push(...piecesOf(region, text, lineOffsets));
  if (pieces.length < 2) return { trees: [], replacesRoot: false };
  const parser = new Parser();
  const trees: Tree[] = [];
  try {
    parser.setLanguage(tree.language);
    for (const range of joinPieces(pieces)) {
      const sub = parser.parse(text, null, { includedRanges: [range] });
      if (sub) trees.push(sub);
    }
  } finally {
    parser.delete();
  }
  return { trees, replacesRoot };
}

/** At most MAX_PIECES ranges, joining neighbours (which are contiguous within one region) when there are more. */
function joinPieces(pieces: Range[]): Range[] {
  if (pieces.length <= MAX_PIECES) return pieces;
  const per = Math.ceil(pieces.length / MAX_PIECES);
  const out: Range[] = [];
  for (let i = 0; i < pieces.length; i += per) {
    const group = pieces.slice(i, i + per);
    let start = group[0]!;
    for (const piece of group.slice(1)) {
      if (piece.startIndex === start.endIndex) start = { ...start, endIndex: piece.endIndex, endPosition: piece.endPosition };
      else {
        out.push(start);
        start = piece;
      }
    }
    out.push(start);
  }
  return out;
}

interface Span {
  startIndex: number;
  endIndex: number;
  startPosition: Range['startPosition'];
  endPosition: Range['endPosition'];
}

function spanOf(node: Node): Span {
  return { startIndex: node.startIndex, endIndex: node.endIndex, startPosition: node.startPosition, endPosition: node.endPosition };
}

/**
 * Large top-level ERROR nodes, each stretched over the fragments that follow it up to the next node that starts a
 * line: an ERROR often ends inside the statement after it, leaving that statement's tail as loose fragments.
 */
function errorRegions(root: Node, textLength: number): Span[] {
  const children = root.children.filter((n): n is Node => n !== null);
  const regions: Span[] = [];
  for (let i = 0; i < children.length; i++) {
    const error = children[i]!;
    if (error.type !== 'ERROR' || error.endPosition.row - error.startPosition.row + 1 < MIN_REGION_LINES) continue;
    let j = i + 1;
    while (j < children.length && !(children[j]!.startPosition.row > error.endPosition.row && children[j]!.startPosition.column === 0)) j++;
    const next = children[j];
    regions.push({
      startIndex: error.startIndex,
      startPosition: error.startPosition,
      endIndex: next ? next.startIndex : textLength,
      endPosition: next ? next.startPosition : root.endPosition,
    });
    i = j - 1;
  }
  return regions;
}

function offsetsOfLines(text: string): number[] {
  const offsets = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) offsets.push(i + 1);
  return offsets;
}

/** The region cut before each line that starts at column 0 with something that can begin a statement. */
function piecesOf(region: Span, text: string, lineOffsets: number[]): Range[] {
  const firstRow = region.startPosition.row;
  const lastRow = region.endPosition.row;
  const starts: number[] = [firstRow];
  for (let row = firstRow + 1; row <= lastRow; row++) {
    const at = lineOffsets[row]!;
    if (!NOT_A_START.test(text.slice(at, at + 1))) starts.push(row);
  }
  const ranges: Range[] = [];
  for (let i = 0; i < starts.length; i++) {
    const row = starts[i]!;
    const startIndex = i === 0 ? region.startIndex : lineOffsets[row]!;
    const endIndex = i + 1 < starts.length ? lineOffsets[starts[i + 1]!]! : region.endIndex;
    if (endIndex <= startIndex) continue;
    ranges.push({
      startIndex,
      endIndex,
      startPosition: { row, column: i === 0 ? region.startPosition.column : 0 },
      endPosition: i + 1 < starts.length ? { row: starts[i + 1]!, column: 0 } : region.endPosition,
    });
  }
  return ranges;
}
