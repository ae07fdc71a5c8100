// Comlink ships its Node adapter as node-adapter.mjs with types in node-adapter.d.ts; this names one for the other.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  export { default } from 'comlink/dist/esm/node-adapter';
}
