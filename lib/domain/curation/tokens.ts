// Token counts with a real BPE tokenizer (gpt-tokenizer, o200k_base ranks shipped in the package: works offline),
// not a character estimate: "maximum tokens per row" must mean what the trainer will see.
import { countTokens as count } from "gpt-tokenizer";

export const TOKENIZER_NAME = "o200k_base (gpt-tokenizer)";

// Imported text is untrusted and agents print anything, including "<|endoftext|>": the tokenizer's default refuses
// special-token text with an exception, which would stop a freeze or an export. Counted as the plain text it is.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  return text ? count(text, PLAIN_TEXT) : 0;
}
