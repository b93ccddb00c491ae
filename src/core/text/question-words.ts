/**
 * The word lists question analysis works with besides the stopwords (text/stopwords.ts): each says what a word is
 * in a question, so one module holds them all and every parser of a question reads them from here.
 */

const words = (text: string): Set<string> => new Set(text.split(/\s+/).filter(Boolean));

/** Words that say what kind of question it is rather than what it is about; left out of relevance. */
export const INTENT_WORDS = words(`used use uses using called call calls caller callers invoked invoke referenced reference references
usage usages imported instantiated site sites defined define declared declaration definition implemented located
location live lives come comes recent recently lately change changed changes changing commit commits committed history
blame changelog regression regressions happen happens happened expected expect expects behaviour behavior behaviours
behaviors supposed explain explained describe work works working find show tell know mean means meant project code
codebase repository repo file files`);

/** Words of programming prose that name language constructs, not the user's symbols: never a plain-word entity. */
export const CODE_WORDS = words(`return returns string strings undefined null none nil true false function functions class classes const let var
new this self type types interface interfaces import imports export exports async await error errors value values object objects array
arrays number numbers int integer bool boolean list dict map set get default options option config data name names key keys test tests
file files code method methods module modules fix fixes fixed add adds added remove removes removed update updates support supports
use make allow allows handle handles change changes instead when case cases issue issues bug bugs`);

/** Words a phrased subject ("where is the X used") can land on that are no name: articles, pronouns, construct nouns. */
export const NOT_A_SUBJECT = words('the a an it this that there function class method type we i you');

/** Words a navigation question ("where is X defined?") can land on that are no symbol to look up. */
export const NOT_A_SYMBOL = words('the a an it this that they function class type method interface struct trait enum symbol constant variable');
