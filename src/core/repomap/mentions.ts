/** What a question mentions, for personalising the map: file-like words and identifier-like words. */
import { isStopword } from '../text/stopwords';

const FILE_LIKE = /^[\w./-]*\/[\w.-]+$|^[\w-]+(\.[\w-]+)*\.[a-z]{1,5}$/i;

export function mentionsFromText(text: string): { files: string[]; idents: string[] } {
  const files = new Set<string>();
  const idents = new Set<string>();
  for (const raw of text.split(/[\s,;:()'"`[\]{}<>]+/)) {
    // Sentence punctuation is not part of a name; a leading ./ is not part of a path.
    const word = raw.replace(/[.?!]+$/, '').replace(/^\.\//, '');
    if (!word) continue;
    if (FILE_LIKE.test(word) && !/^\d/.test(word)) files.add(word);
    for (const id of word.match(/[A-Za-z_$][\w$]*/g) ?? []) {
      if (id.length >= 3 && !isStopword(id.toLowerCase())) idents.add(id);
    }
  }
  return { files: [...files], idents: [...idents] };
}
