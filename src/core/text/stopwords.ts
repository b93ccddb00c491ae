/**
 * The one list of English function words the engine drops from questions and queries: smart context, full-text
 * search and the repo map's mentions all use it, so a word is noise in one place exactly when it is in the others.
 * It is the context ranker's list (the one the dev-set figures were fitted with); the shorter lists the full-text
 * search and the repo map once had were subsets of it.
 */
const STOPWORDS = new Set(`a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing don done down during each either else etc even ever every
few for from further get gets got had has have having he her here hers him his how however i if in into is it its
itself just let lets like made make makes many may me might more most much must my no nor not now of off on once only
or other our ours out over own per please same see seem seems she should since so some such than that the their
theirs them then there these they this those though through thus to too under until up upon us use used uses using
very via was way we were what when where whenever whether which while who whom whose why will with within without
would yet you your yours defined define definition declared`.split(/\s+/).filter(Boolean));

/** `word` lower-cased is a stopword. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}
