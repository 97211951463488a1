export { normalizeLine, MAX_TEMPLATE_CHARS, type NormalizedLine } from "./normalize.ts";
export { findDecisiveLine, type DecisiveLine } from "./decisive-line.ts";
export { signatureOf, stepSignature, templateHashOf, type ErrorSignature } from "./signature.ts";
