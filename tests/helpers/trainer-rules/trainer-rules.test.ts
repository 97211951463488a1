// The trainer rules catch what the old exports did wrong (so a green export test means something).
import { describe, expect, it } from "vitest";
import { checkOpenAiLine } from "./openai.ts";
import { checkTrlLine } from "./trl.ts";
import { checkDatasetInfo, checkShareGptLine } from "./llama-factory.ts";
import { checkAxolotlLine } from "./axolotl.ts";

const call = (args: unknown) => ({ id: "c1", type: "function", function: { name: "bash", arguments: args } });
const bash = [
  {
    type: "function",
    function: { name: "bash", description: "", parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] } },
  },
];
const line = (o: unknown) => JSON.stringify(o);

describe("OpenAI rules", () => {
  it("accept a good row and reject undeclared tools, extra keys, a trailing tool output, escapes and string-less arguments", () => {
    const good = {
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", tool_calls: [call('{"cmd":"ls"}')], weight: 0 },
        { role: "tool", tool_call_id: "c1", content: "a" },
        { role: "assistant", content: "done", weight: 1 },
      ],
      tools: bash,
    };
    expect(checkOpenAiLine(line(good))).toEqual([]);
    expect(checkOpenAiLine(line({ ...good, tools: [] })).join()).toMatch(/non-empty|not declared/);
    expect(checkOpenAiLine(line({ ...good, metadata: {} })).join()).toMatch(/key metadata/);
    expect(checkOpenAiLine(line({ ...good, messages: good.messages.slice(0, 3) })).join()).toMatch(/end on an assistant/);
    expect(
      checkOpenAiLine(
        line({
          ...good,
          messages: [...good.messages.slice(0, 2), { role: "tool", tool_call_id: "c1", content: "\u001b[1;32mx" }, good.messages[3]],
        }),
      ).join(),
    ).toMatch(/escape/);
    expect(
      checkOpenAiLine(
        line({
          ...good,
          messages: [good.messages[0], { role: "assistant", tool_calls: [call({ cmd: "ls" })], weight: 0 }, ...good.messages.slice(2)],
        }),
      ).join(),
    ).toMatch(/JSON string/);
    expect(
      checkOpenAiLine(
        line({
          ...good,
          messages: [good.messages[0], { role: "assistant", tool_calls: [call('{"cmd":1}')], weight: 0 }, ...good.messages.slice(2)],
        }),
      ).join(),
    ).toMatch(/declared type/);
    expect(checkOpenAiLine(line(good), { contextAgentSteps: 1, recoveryAgentSteps: 0 }).join()).toMatch(/failed context is trained/);
  });
});

describe("TRL rules", () => {
  it("want object arguments, a tools column and a completion that starts and ends with the assistant", () => {
    const good = {
      prompt: [{ role: "user", content: "go" }],
      completion: [
        { role: "assistant", content: "", tool_calls: [call({ cmd: "ls" })] },
        { role: "tool", name: "bash", tool_call_id: "c1", content: "a" },
        { role: "assistant", content: "done" },
      ],
      tools: bash,
    };
    expect(checkTrlLine(line(good))).toEqual([]);
    expect(
      checkTrlLine(
        line({ ...good, completion: [{ ...good.completion[0], tool_calls: [call('{"cmd":"ls"}')] }, ...good.completion.slice(1)] }),
      ).join(),
    ).toMatch(/not a JSON string/);
    expect(checkTrlLine(line({ ...good, completion: good.completion.slice(0, 2) })).join()).toMatch(/end on an assistant/);
    expect(checkTrlLine(line({ ...good, tools: undefined })).join()).toMatch(/tools column/);
  });
});

describe("LLaMA-Factory rules", () => {
  it("want strict alternation, JSON function calls and a tools string", () => {
    const tools = JSON.stringify([{ name: "bash", description: "", parameters: bash[0]!.function.parameters }]);
    const good = {
      conversations: [
        { from: "human", value: "go" },
        { from: "function_call", value: '<think>look</think>{"name":"bash","arguments":{"cmd":"ls"}}' },
        { from: "observation", value: "a" },
        { from: "gpt", value: "done" },
      ],
      system: "",
      tools,
    };
    expect(checkShareGptLine(line(good))).toEqual([]);
    // The old export: gpt → function_call → observation, no tools, ending on the output.
    const old = {
      conversations: [
        { from: "human", value: "go" },
        { from: "gpt", value: "look" },
        { from: "function_call", value: '{"name":"bash","arguments":"{\\"cmd\\":\\"ls\\"}"}' },
        { from: "observation", value: "a" },
      ],
      system: "",
    };
    const problems = checkShareGptLine(line(old)).join();
    expect(problems).toMatch(/function_call at an odd position/);
    expect(problems).toMatch(/observation at an even position/);
    expect(problems).toMatch(/arguments must be a JSON object/);
    expect(checkDatasetInfo(JSON.stringify({ d: { file_name: "x.jsonl", formatting: "alpaca" } }), "x.jsonl").join()).toMatch(/sharegpt/);
  });
});

describe("axolotl rules", () => {
  it("want a boolean train on every message and only assistant turns trained", () => {
    const good = {
      messages: [
        { role: "user", content: "go", train: false },
        { role: "assistant", content: "old", train: false },
        { role: "assistant", content: "done", train: true },
      ],
      tools: [],
    };
    expect(checkAxolotlLine(line(good), { contextAgentSteps: 1, recoveryAgentSteps: 1 })).toEqual([]);
    expect(
      checkAxolotlLine(
        line({
          messages: [
            { role: "user", content: "go" },
            { role: "assistant", content: "x", train: true },
          ],
        }),
      ).join(),
    ).toMatch(/train must be a boolean/);
    expect(
      checkAxolotlLine(
        line({
          messages: [
            { role: "user", content: "go", train: true },
            { role: "assistant", content: "x", train: true },
          ],
        }),
      ).join(),
    ).toMatch(/user message is trained/);
    expect(
      checkAxolotlLine(line({ messages: [good.messages[0], { role: "assistant", content: "old", train: true }, good.messages[2]] }), {
        contextAgentSteps: 1,
        recoveryAgentSteps: 1,
      }).join(),
    ).toMatch(/recovery has 1/);
  });
});
