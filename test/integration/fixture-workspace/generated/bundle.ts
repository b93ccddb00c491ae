// Generated output: gitignored in the fixture workspace, so the index must not contain it.
export function generatedOnlySymbol(): number {
  return 42;
}
