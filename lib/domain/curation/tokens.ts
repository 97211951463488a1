// Token counts with a real BPE tokenizer (gpt-tokenizer, o200k_base ranks shipped in the package: works offline),
// not a character estimate: "maximum tokens per row" must mean what the trainer will see.
import { countTokens as count } from "gpt-tokenizer";

export const TOKENIZER_NAME = "o200k_base (gpt-tokenizer)";

export function countTokens(text: string): number {
  return text ? count(text) : 0;
}
