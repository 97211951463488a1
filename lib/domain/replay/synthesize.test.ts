import { describe, expect, it } from "vitest";
import { SessionClock, splitEcho, synthesizeStep, toCrlf, type SynthStep } from "./synthesize.ts";
import { stripAnsi } from "../ansi.ts";

const PROMPT = "\u001b[1;32mroot@sandbox\u001b[0m:\u001b[1;34m/app\u001b[0m# ";
const step = (over: Partial<SynthStep>): SynthStep => ({
  index: 0,
  source: "agent",
  action: null,
  observation: null,
  message: null,
  offsetMs: null,
  ...over,
});
const screen = (events: ReturnType<typeof synthesizeStep>) => stripAnsi(events.map((e) => e[2]).join(""));

describe("synthesizeStep", () => {
  it("uses the shell's own prompt and echo when the observation starts with them", () => {
    const s = step({ action: "ls -la", observation: `${PROMPT}ls -la\r\ntotal 32\r\nREADME.md\r\n` });
    const events = synthesizeStep(s, 1000);
    expect(events[0]).toEqual([1000, "o", PROMPT]);
    expect(screen(events)).toBe("root@sandbox:/app# ls -la\ntotal 32\nREADME.md\n");
    expect(events.every((e, i) => i === 0 || e[0] >= events[i - 1]![0])).toBe(true);
  });

  it("types the command character by character after a default prompt when there is no echo", () => {
    const events = synthesizeStep(step({ action: "echo hi", observation: "hi\nthere" }), 0);
    expect(events[0]![2]).toContain("$");
    const typed = events
      .filter((e) => e[2].length === 1)
      .map((e) => e[2])
      .join("");
    expect(typed).toBe("echo hi");
    expect(events.at(-1)![2]).toBe("hi\r\nthere\r\n");
    expect(events.at(-1)![0]).toBeGreaterThan(events[1]![0]);
  });

  it("continues multi-line commands with a continuation prompt and pastes the tail of long ones", () => {
    const heredoc = `python3 - <<'EOF'\nprint(1)\nEOF`;
    expect(screen(synthesizeStep(step({ action: heredoc }), 0))).toBe(`$ python3 - <<'EOF'\n> print(1)\n> EOF\n`);
    const long = `echo ${"x".repeat(500)}`;
    const events = synthesizeStep(step({ action: long }), 0);
    expect(events.length).toBeLessThan(90);
    expect(screen(events)).toBe(`$ ${long}\n`);
  });

  it("shows non-command turns as one dim comment line, control characters removed", () => {
    const events = synthesizeStep(step({ source: "user", message: "Fix the build\u001b]52;c;x\u0007 please\nsecond line" }), 5);
    expect(events).toHaveLength(1);
    expect(stripAnsi(events[0]![2])).toBe("# user: Fix the build ]52;c;x  please\n");
  });

  it("splits huge output into a bounded number of pieces", () => {
    const events = synthesizeStep(step({ action: "cat big", observation: "y".repeat(5_000_000) }), 0);
    const out = events.filter((e) => e[2].startsWith("y"));
    expect(out.length).toBeLessThanOrEqual(40);
    expect(out.reduce((n, e) => n + e[2].length, 0)).toBe(5_000_000 + "\r\n".length);
  });
});

describe("SessionClock", () => {
  it("starts steps at their offsets but never before the previous step ended", () => {
    const clock = new SessionClock();
    const a = clock.place(step({ index: 0, source: "user", message: "task", offsetMs: 0 }));
    const b = clock.place(step({ index: 1, action: "make", observation: "ok", offsetMs: 30_000 }));
    const c = clock.place(step({ index: 2, action: "make test", observation: "ok", offsetMs: 30_001 }));
    expect(a.timing).toEqual({ index: 0, startMs: 0, endMs: 0 });
    expect(b.timing.startMs).toBe(30_000);
    expect(c.timing.startMs).toBe(b.timing.endMs + 400);
    expect(c.events[0]![0]).toBe(c.timing.startMs);
    expect(c.events.at(-1)![0]).toBe(c.timing.endMs);
  });

  it("is deterministic", () => {
    const steps = [step({ index: 0, action: "a", observation: "1" }), step({ index: 1, action: "b", observation: "2", offsetMs: 9000 })];
    const run = () => {
      const c = new SessionClock();
      return steps.map((s) => c.place(s));
    };
    expect(run()).toEqual(run());
  });
});

describe("helpers", () => {
  it("normalizes line endings and detects echoes", () => {
    expect(toCrlf("a\nb\r\nc")).toBe("a\r\nb\r\nc");
    expect(splitEcho("$ ls\nfile", "ls")).toEqual({ prompt: "$ ", output: "file" });
    expect(splitEcho("New Terminal Output:\n$ ls\nfile", "ls")).toBeNull();
    expect(splitEcho("file", "ls")).toBeNull();
  });
});
