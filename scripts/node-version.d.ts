// Types of node-version.js (plain JavaScript: setup.sh runs it on whatever Node the machine has).
export declare const NODE_ENGINES: string;
export declare function satisfiesEngines(version: string, range?: string): boolean;
