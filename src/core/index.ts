/** Public surface of the engine for hosts: the façade, the ports, the DTOs and the error type. */
export { createEngine, type Engine } from './engine';
export { EngineError, type EngineErrorCode } from './errors';
export type * from './ports';
export type * from './model';
export { DEFAULT_CONFIG, SETTINGS, type EngineConfig } from './config';
export { LANGUAGES } from './parse/languages';
export { createInProcessParserHost } from './parse/in-process-parser-host';
export { ENGINE_VERSION } from './version';
