/**
 * DTOs the language server computes for editor features (hovers, CodeLens, Problems, quick picks). Plain data with
 * workspace-relative POSIX paths and 1-based lines, like every engine DTO.
 */
import type { Violation } from '../core';

/** A declared graph node an annotation points at, with what a hover says about it. */
export interface AnnotatedNode {
  ref_id: string;
  kind: string;
  summary: string;
  /** Nodes that depend on it directly (the why-tree's first downstream level). */
  dependents: number;
  /** Docs of the node that are stale because this file changed after they were last synced. */
  staleDocs: string[];
}

/** A definition carrying an `oracle:`/`beadloom:` annotation. */
export interface AnnotatedSymbol {
  /** `path::Qualified.Name` (the code ref_id), or the path when no indexed symbol follows the annotation. */
  ref_id: string;
  name: string;
  kind: string;
  /** 1-based line of the definition's first line, and of its last. */
  line: number;
  endLine: number;
  annotationLine: number;
  /** The annotation's key=value pairs as written. */
  pairs: Record<string, string>;
  /** Values of the pairs that name declared nodes. */
  nodes: AnnotatedNode[];
}

export interface FileInsights {
  path: string;
  symbols: AnnotatedSymbol[];
}

export interface StaleDocProblem {
  ref_id: string;
  doc_path: string;
  code_path: string;
  /** 1-based line of the doc's first heading (where the warning is shown). */
  line: number;
}

export interface ProblemsResult {
  staleDocs: StaleDocProblem[];
  violations: Violation[];
}

export interface RefIdSuggestion {
  ref_id: string;
  kind: string;
  summary: string;
}

export interface SymbolAt {
  ref_id: string;
  name: string;
  kind: string;
  line: number;
  endLine: number;
}
