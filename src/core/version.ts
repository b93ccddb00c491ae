/** Bumped with every release; an index written by another engine version is rebuilt. */
export const ENGINE_VERSION = '0.1.0';
