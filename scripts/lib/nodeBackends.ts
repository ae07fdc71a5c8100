/** Backends that run in Node without native add-ons (TF-free, for a command line checked before TF.js loads). */
export const NODE_BACKENDS = ['wasm', 'cpu'] as const;
export type NodeBackend = (typeof NODE_BACKENDS)[number];
