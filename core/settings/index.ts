export * from './paths.js';
export * from './json-file.js';
export * from './settings.js';
export * from './secrets.js';
export * from './code-mappings.js';
export * from './keychain.js';
