/** Names of the language model tools; package.json `languageModelTools` declares the same (a unit test checks). */
export const TOOL_NAMES = ['contextOracle_getContext', 'contextOracle_findDefinition', 'contextOracle_findReferences', 'contextOracle_repoMap', 'contextOracle_why'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** The `@oracle` participant's slash commands, as package.json `chatParticipants` declares them. */
export const PARTICIPANT_COMMANDS = ['context', 'why', 'map', 'def', 'refs'] as const;
