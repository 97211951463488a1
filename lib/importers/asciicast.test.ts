import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeShared, fixture } from "../../tests/helpers/shared-fixtures.ts";
import type { RecordingEvent, TrajectoryInput } from "../domain/trajectory.ts";
import type { ImportIssue } from "./types.ts";
import { asciicastImporter, parseAsciicast } from "./asciicast.ts";
import { deriveCastSteps } from "./cast-steps.ts";
import { fileSource } from "./source.ts";
import { attachedWarnings } from "./test-reader.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reterm-cast-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, content: string | Buffer): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  return file;
}

async function importCast(file: string): Promise<{ trajectories: TrajectoryInput[]; issues: ImportIssue[] }> {
  const trajectories: TrajectoryInput[] = [];
  const issues: ImportIssue[] = [];
  for await (const r of asciicastImporter.read(await fileSource(file, path.basename(file)), {})) {
    if (r.ok) {
      trajectories.push(r.value.trajectory);
      issues.push(...attachedWarnings(r));
    } else issues.push(r.issue);
  }
  return { trajectories, issues };
}

/** The one trajectory of a file; `issues` are the per-line problems reported next to it. */
async function importWithIssues(file: string): Promise<{ t: TrajectoryInput; issues: ImportIssue[] }> {
  const { trajectories, issues } = await importCast(file);
  expect(trajectories).toHaveLength(1);
  return { t: trajectories[0]!, issues };
}

async function importOne(file: string): Promise<TrajectoryInput> {
  return (await importWithIssues(file)).t;
}

const codes = (events: readonly RecordingEvent[]) => events.map((e) => e[1]).join("");

describeShared("asciicast importer on the shared recordings", () => {
  const cast = (name: string) => fixture("asciicast", name);

  it("player__markers-input.v2: input and markers split the recording into three steps", async () => {
    const t = await importOne(cast("player__markers-input.v2.cast"));
    expect(t.recording?.format).toBe("asciicast-v2");
    expect(codes(t.recording!.events)).toBe("oimoimooo");
    expect(t.recording!.events.at(-1)![0]).toBe(2);
    expect(t.steps.map((s) => [s.source, s.action, s.message, s.observation, s.offsetMs])).toEqual([
      ["agent", "a", undefined, "start", 200],
      ["tool", undefined, "first", "middle", 500],
      ["tool", undefined, "second", "more\nend\ndone", 1100],
    ]);
  });

  it("player__resizing.v3: intervals become absolute times, resize and exit events are kept", async () => {
    const t = await importOne(cast("player__resizing.v3.cast"));
    const events = t.recording!.events;
    expect(t.recording).toMatchObject({ format: "asciicast-v3", width: 80, height: 24 });
    expect(codes(events)).toBe("ororox");
    expect(events.map((e) => e[0])).toEqual([0.5, 1, 1.5, 2, expect.closeTo(2.1, 6), expect.closeTo(2.1, 6)]);
    expect(events.filter((e) => e[1] === "r").map((e) => e[2])).toEqual(["100x30", "50x10"]);
    expect(events.at(-1)).toEqual([expect.closeTo(2.1, 6), "x", "0"]);
    expect(t.steps).toEqual([{ source: "tool", offsetMs: 500, observation: "hello world!" }]);
  });

  it("player__simple.v2: integer and float times, one output step", async () => {
    const t = await importOne(cast("player__simple.v2.cast"));
    expect(t.recording!.events).toHaveLength(11);
    expect(t.recording!.events[0]).toEqual([2, "o", "hello\r\n"]);
    expect(t.recording!.events[3]![0]).toBe(3.000002);
    expect(t.steps).toHaveLength(1);
    expect(t.steps[0]!.observation).toBe(Array(11).fill("hello").join("\n"));
    expect(t.metadata).toMatchObject({ asciicast: { version: 2, events: 11, durationSec: 12 } });
  });

  it("player__theme.v3: term size and theme come from the v3 header", async () => {
    const t = await importOne(cast("player__theme.v3.cast"));
    expect(t.recording).toMatchObject({
      format: "asciicast-v3",
      width: 80,
      height: 4,
      header: { term: { theme: { fg: "#fafafa", bg: "#bababa" } } },
    });
    expect(t.recording!.events).toHaveLength(66);
    expect(t.recording!.events.filter((e) => e[1] === "x")).toHaveLength(1);
    expect(t.steps).toHaveLength(1);
    // Each swatch is "◆▋" plus the powerline glyph U+E0B0, once per palette colour (16 per row).
    expect(t.steps[0]!.observation!.split("\n")).toEqual(["◆▋\ue0b0".repeat(16), "◆▋\ue0b0".repeat(16)]);
  });

  it("server__v2-broken: the non-JSON line 3 is reported and skipped, the other events are kept", async () => {
    const { t, issues } = await importWithIssues(cast("server__v2-broken.cast"));
    expect(issues).toEqual([{ file: "server__v2-broken.cast", line: 3, message: "invalid JSON in event line", severity: "warning" }]);
    expect(t.recording!.events).toEqual([
      [1.234567, "o", "foo bar"],
      [8.456789, "o", "żółć jaźń"],
    ]);
    expect(t.steps[0]!.observation).toBe("foo barżółć jaźń");
  });

  it("server__v2-full: every header field, start/end time from the header timestamp", async () => {
    const t = await importOne(cast("server__v2-full.cast"));
    expect(codes(t.recording!.events)).toBe("orioo");
    expect(t.recording).toMatchObject({
      width: 96,
      height: 26,
      header: { title: "bashing :)", idle_time_limit: 2.5, env: { SHELL: "/bin/zsh" } },
    });
    expect(t.startedAt).toBe("2017-09-26T07:20:22.000Z");
    expect(t.endedAt).toMatch(/^2017-09-26T07:20:30\.45\dZ$/);
    expect(t.metadata).toMatchObject({ asciicast: { title: "bashing :)", command: "/bin/bash -l" } });
    // A bare Enter is not a command.
    expect(t.steps).toEqual([
      { source: "tool", timestamp: "2017-09-26T07:20:23.235Z", offsetMs: 1235, observation: "foo barbaz quxżółć jaźń" },
    ]);
  });

  it("server__v2-welcome: commands after bash prompts become steps, `> ` lines stay output", async () => {
    const t = await importOne(cast("server__v2-welcome.cast"));
    expect(t.recording!.events).toHaveLength(786);
    expect(t.recording!.events.filter((e) => e[1] === "r")).toEqual([[4.4, "r", "81x20"]]);
    expect(t.metadata).toMatchObject({ asciicast: { durationSec: 119.208, title: "Welcome to asciinema!" } });
    expect(t.steps.map((s) => s.action)).toEqual([
      undefined,
      "# I am in a new shell instance which is being recorded now",
      "sha1sum /etc/f* | tail -n 10 | lolcat -F 0.3",
      "# To finish recording just exit the shell",
      "exit",
    ]);
    expect(t.steps[0]!.observation).toContain("> brew install asciinema");
    // The progress bar's carriage returns are resolved to what the terminal finally showed.
    expect(t.steps[0]!.observation).toContain("######################################################################## 100.0%\n");
    const hashes = t.steps[2]!.observation!.split("\n");
    expect(hashes).toHaveLength(5);
    expect(hashes[1]).toBe("88dd3ea7ffcbb910fbd1d921811817d935310b34  /etc/fstab.hd");
    expect(t.steps[2]!.offsetMs).toBe(50242);
    expect(t.steps[4]!.observation).toContain("https://asciinema.org/a/17648");
    expect(t.steps[4]!.observation!.startsWith("exit")).toBe(false);
  });

  it("server__v3-big: 3 MB imports quickly, with a bounded observation", async () => {
    const started = Date.now();
    const t = await importOne(cast("server__v3-big.cast"));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(t.recording).toMatchObject({ width: 160, height: 76 });
    expect(t.recording!.events).toHaveLength(4998);
    expect(new Set(codes(t.recording!.events))).toEqual(new Set(["o"]));
    expect(t.steps).toHaveLength(1);
    expect(t.steps[0]!.observation!.length).toBeLessThan(65 * 1024);
    expect(t.steps[0]!.observation).toMatch(/\[… \d+ characters omitted …\]/);
    expect(t.steps[0]!.observation!.startsWith("lADcGZMHUiNefF7pqn+3pIn6RqAoinBVU/WMlVXhS3KvfXdt05yuMVhfAvMfyYL9SNNEjFvCYUp2\n")).toBe(
      true,
    );
  });

  it("server__v3-blank-lines-and-comments: comments and blank lines are skipped", async () => {
    const { t, issues } = await importWithIssues(cast("server__v3-blank-lines-and-comments.cast"));
    expect(issues).toEqual([]);
    expect(t.recording!.events.map((e) => e[0])).toEqual([
      1.234567,
      expect.closeTo(5.678987, 6),
      expect.closeTo(8.481455, 6),
      expect.closeTo(9.481455, 6),
    ]);
    expect(t.steps[0]!.observation).toBe("foo barbaz quxżółć jaźńbye!");
  });

  it("server__v3-full: term type, input and resize events on a relative clock", async () => {
    const t = await importOne(cast("server__v3-full.cast"));
    expect(codes(t.recording!.events)).toBe("oioro");
    expect(t.recording!.events.at(-1)![0]).toBeCloseTo(10.370343, 6);
    expect(t.recording).toMatchObject({ width: 96, height: 26, header: { term: { type: "xterm-ghostty" }, title: "bashing :)" } });
  });

  it("server__v3-invalid-time-1: the negative interval on line 3 is reported, line 2 is kept", async () => {
    const parse = await parseAsciicast(await fileSource(cast("server__v3-invalid-time-1.cast"), "invalid-time.cast"));
    expect(parse.issues).toEqual([
      { file: "invalid-time.cast", line: 3, message: "event time must not be negative (got -1); event skipped" },
    ]);
    expect(parse.recording!.events).toEqual([[1.234, "o", "foo bar"]]);
  });
});

describe("asciicast parsing without shared fixtures", () => {
  it("reads v1 (one JSON document, relative delays) as absolute output events", async () => {
    const file = write(
      "v1.cast",
      JSON.stringify(
        {
          version: 1,
          width: 100,
          height: 30,
          duration: 1.5,
          command: "/bin/sh",
          stdout: [
            [0.5, "$ "],
            [0.25, "ls\r\n"],
            [0.75, "a  b\r\n$ "],
            ["x", 1],
          ],
        },
        null,
        2,
      ),
    );
    const { trajectories, issues } = await importCast(file);
    expect(issues).toEqual([{ file: "v1.cast", path: "stdout[3]", message: "expected a frame [delay ≥ 0, data]", severity: "warning" }]);
    const t = trajectories[0]!;
    expect(t.recording).toMatchObject({ format: "asciicast-v2", width: 100, height: 30, header: { version: 1, command: "/bin/sh" } });
    expect(t.recording!.events).toEqual([
      [0.5, "o", "$ "],
      [0.75, "o", "ls\r\n"],
      [1.5, "o", "a  b\r\n$ "],
    ]);
    expect(t.steps).toEqual([{ source: "agent", offsetMs: 500, action: "ls", observation: "a  b" }]);
  });

  it("tolerates a cut-off last line (a killed recording) without an issue", async () => {
    const file = write(
      "cut.cast",
      '{"version": 2, "width": 80, "height": 24}\n[0.1, "o", "$ "]\n[0.2, "o", "ls\\r\\nfile\\r\\n$ "]\n[0.3, "o", "whoa',
    );
    const parse = await parseAsciicast(await fileSource(file, "cut.cast"));
    expect(parse.issues).toEqual([]);
    expect(parse.truncated).toBe(true);
    expect(parse.recording!.events).toHaveLength(2);
    const { trajectories } = await importCast(file);
    expect(trajectories[0]!.metadata).toMatchObject({ asciicast: { truncated: true } });
  });

  it("reports each malformed event with its line and keeps going", async () => {
    const lines = [
      '{"version": 2, "width": 80, "height": 24}',
      '[0.1, "o", "a"]',
      '{"t": 1}',
      '["x", "o", "b"]',
      "[0.5, 7, 8]",
      '[0.6, "z", "unknown code"]',
      '[0.7, "o", "c"]',
    ];
    const parse = await parseAsciicast(await fileSource(write("bad-events.cast", lines.join("\n")), "bad-events.cast"));
    expect(parse.issues.map((i) => [i.line, i.message])).toEqual([
      [3, "expected an event [time, code, data]"],
      [4, "event time must be a number"],
      [5, "event code must be a string"],
      [6, 'unknown event code "z"; event skipped'],
    ]);
    expect(parse.recording!.events.map((e) => e[2])).toEqual(["a", "c"]);
  });

  it("clamps backwards v2 times and the terminal size to the native limits", async () => {
    const file = write("jitter.cast", '{"version": 2, "width": 5000, "height": 0}\n');
    const bad = await parseAsciicast(await fileSource(file, "jitter.cast"));
    expect(bad.recording).toBeNull();
    expect(bad.issues).toEqual([{ file: "jitter.cast", line: 1, path: "header.height", message: expect.stringContaining(">0") }]);
    const ok = await parseAsciicast(
      await fileSource(write("jitter2.cast", '{"version": 2, "width": 5000, "height": 40}\n[1.0, "o", "a"]\n[0.9, "o", "b"]\n'), "j.cast"),
    );
    expect(ok.recording!.width).toBe(1000);
    expect(ok.recording!.events.map((e) => e[0])).toEqual([1, 1]);
  });
});

describe("steps derived from recordings", () => {
  it("uses typed input for commands and keeps heredoc lines in one step", () => {
    const steps = deriveCastSteps([
      [0, "o", "\u001b[01;32mroot@box\u001b[00m:/app# "],
      [1, "i", "cat > f <<EOF\rhello\rEOF\r"],
      [1.1, "o", "cat > f <<EOF\r\n> hello\r\n> EOF\r\n"],
      [1.2, "o", "root@box:/app# "],
      [2, "i", "lss\u007f\r"],
      [2.1, "o", "ls\r\nf\r\n"],
      [2.2, "o", "root@box:/app# "],
      [3, "i", "sleep 100\r"],
      [4, "i", "\u0003"],
      [4.1, "o", "sleep 100\r\n^C\r\nroot@box:/app# "],
    ]);
    expect(steps.map((s) => [s.action, s.observation, s.offsetMs])).toEqual([
      ["cat > f <<EOF\nhello\nEOF", "> hello\n> EOF", 0],
      ["ls", "f", 1200],
      ["sleep 100\n^C", "^C", 2200],
    ]);
  });

  it("falls back to echoed commands without input events, and to Enter without prompts", () => {
    const echoed = deriveCastSteps([
      [0, "o", "user@host:~$ "],
      [1, "o", "echo hi\r\nhi\r\nuser@host:~$ "],
    ]);
    expect(echoed).toEqual([{ source: "agent", offsetMs: 0, action: "echo hi", observation: "hi" }]);
    const noPrompt = deriveCastSteps([
      [0, "o", "ready\r\n"],
      [1, "i", "one\r"],
      [1.1, "o", "one\r\nfirst output\r\n"],
      [2, "i", "two\r"],
      [2.1, "o", "two\r\nsecond output\r\n"],
    ]);
    expect(noPrompt.map((s) => [s.source, s.action, s.observation])).toEqual([
      ["tool", undefined, "ready"],
      ["agent", "one", "first output"],
      ["agent", "two", "second output"],
    ]);
  });

  it("does not take progress bars or percentages for prompts", () => {
    const steps = deriveCastSteps([
      [0, "o", "$ "],
      [0.5, "o", "make\r\n"],
      [1, "o", "[#####     "],
      [1.5, "o", "\r[##########] 50% "],
      [2, "o", "\r\ndone\r\n$ "],
    ]);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ action: "make", observation: "[##########] 50%\ndone" });
  });

  it("gives steps absolute timestamps when the recording start is known, and labels them with markers", () => {
    const steps = deriveCastSteps(
      [
        [0, "o", "# "],
        [1, "m", "Episode 1: 1 commands"],
        [1.5, "i", "id\r"],
        [1.6, "o", "id\r\nuid=0(root)\r\n# "],
      ],
      Date.UTC(2026, 0, 1),
    );
    expect(steps).toEqual([
      {
        source: "agent",
        timestamp: "2026-01-01T00:00:01.000Z",
        offsetMs: 1000,
        message: "Episode 1: 1 commands",
        action: "id",
        observation: "uid=0(root)",
      },
    ]);
  });
});

describe("asciicast robustness: bad input gives one clear issue, never a throw or a hang", () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ["empty.cast", "", /file is empty/],
    ["garbage.cast", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), /binary file/],
    ["truncated-header.cast", '{"version": 2, "width": 80, "hei', /first line is not a JSON header/],
    ["wrong-version.cast", '{"version": 9, "width": 80, "height": 24}\n', /unsupported header version 9/],
    ["not-a-cast.cast", "hello world\nthis is text\n", /first line is not a JSON header/],
    ["array.cast", "[1, 2, 3]\n", /first line is not a JSON header object/],
    ["huge-line.cast", "x".repeat(10 * 1024 * 1024), /first line is not a JSON header/],
  ];
  for (const [name, content, message] of cases) {
    it(`${name} → one issue`, async () => {
      const { trajectories, issues } = await importCast(write(name, content));
      expect(trajectories).toEqual([]);
      expect(issues).toHaveLength(1);
      expect(issues[0]!.file).toBe(name);
      expect(issues[0]!.message).toMatch(message);
    });
  }

  it("an event line of 10 MB is read, not choked on", async () => {
    const big = "y".repeat(10 * 1024 * 1024);
    const { trajectories, issues } = await importCast(
      write("big-event.cast", `{"version": 2, "width": 80, "height": 24}\n[0.5, "o", "${big}"]\n[0.6, "o", "\\r\\n$ "]\n`),
    );
    expect(issues).toEqual([]);
    expect(trajectories[0]!.recording!.events[0]![2]).toHaveLength(big.length);
    expect(trajectories[0]!.steps[0]!.observation!.length).toBeLessThan(65 * 1024);
  });

  it("detects casts by header, v1 by its stdout, and other .cast files weakly so their issue is reported", async () => {
    const detect = async (name: string, content: string) => asciicastImporter.detect(await fileSource(write(name, content), name));
    expect(await detect("a.log", '{"version": 2, "width": 80, "height": 24}\n')).toBe(0.9);
    expect(await detect("b.json", '{"version":3,"term":{"cols":80,"rows":24}}\n')).toBe(0.9);
    expect(await detect("c.json", '{\n  "version": 1,\n  "width": 80,\n  "stdout": []\n}')).toBe(0.8);
    expect(await detect("d.cast", "nonsense")).toBe(0.5);
    expect(await detect("e.json", '{"version": 2, "steps": []}')).toBe(0);
  });
});
