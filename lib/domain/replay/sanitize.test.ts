import { describe, expect, it } from "vitest";
import { LINE_TRUNCATED_NOTICE, MAX_LINE_CHARS, TerminalSanitizer, sanitizeTerminalOutput as clean } from "./sanitize.ts";
import { mulberry32 } from "../random.ts";

const ESC = "\u001b";
const BEL = "\u0007";
const ST = `${ESC}\\`;

describe("sanitizer: what must never reach the terminal", () => {
  it("drops OSC 52 clipboard writes (BEL and ST terminated, 7- and 8-bit)", () => {
    expect(clean(`a${ESC}]52;c;ZXZpbA==${BEL}b`)).toBe("ab");
    expect(clean(`a${ESC}]52;c;ZXZpbA==${ST}b`)).toBe("ab");
    expect(clean(`a\u009d52;c;ZXZpbA==\u009cb`)).toBe("ab");
  });

  it("drops window/icon title changes and the title stack", () => {
    expect(clean(`${ESC}]0;pwned${BEL}x${ESC}]1;icon${ST}y${ESC}]2;title${BEL}z`)).toBe("xyz");
    expect(clean(`${ESC}[22;0t${ESC}[23;0t${ESC}[21t${ESC}[8;50;200tok`)).toBe("ok");
  });

  it("keeps OSC 8 links to http(s) only", () => {
    expect(clean(`${ESC}]8;;https://example.com/a?b=1${ST}site${ESC}]8;;${ST}`)).toBe(
      `${ESC}]8;;https://example.com/a?b=1${ST}site${ESC}]8;;${ST}`,
    );
    expect(clean(`${ESC}]8;id=x;http://h/${BEL}t`)).toBe(`${ESC}]8;id=x;http://h/${ST}t`);
    for (const url of ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,<b>x</b>", "ssh://h", "vscode://x"]) {
      expect(clean(`${ESC}]8;;${url}${ST}click${ESC}]8;;${ST}`)).toBe(`click${ESC}]8;;${ST}`);
    }
  });

  it("drops DCS, SOS, PM and APC strings with their content", () => {
    expect(clean(`a${ESC}P$q"p${ST}b`)).toBe("ab"); // DECRQSS
    expect(clean(`a${ESC}Ptmux;${ESC}${ESC}]52;c;eA==${BEL}${ST}b`)).toBe("ab"); // tmux passthrough: the inner ESC ends the DCS, the OSC 52 after it is dropped too
    expect(clean(`a${ESC}Xsos${ST}b${ESC}^pm${ST}c${ESC}_Gf=100;AAAA${ST}d`)).toBe("abcd");
    expect(clean(`a\u0090q\u009cb`)).toBe("ab");
  });

  it("drops terminal queries that would make the terminal answer", () => {
    expect(clean(`${ESC}[6n${ESC}[5n${ESC}[?6n${ESC}[c${ESC}[0c${ESC}[>c${ESC}[=c${ESC}[>0q${ESC}[?2004$p${ESC}[x${ESC}ZOK`)).toBe("OK");
    expect(clean(`\u009b6nOK`)).toBe("OK");
    expect(clean(`a\u0005b`)).toBe("ab"); // ENQ (answerback)
  });

  it("removes bracketed paste, mouse and focus reporting from mode changes but keeps other modes", () => {
    expect(clean(`${ESC}[?2004h${ESC}[?2004l`)).toBe("");
    expect(clean(`${ESC}[?1049;2004h`)).toBe(`${ESC}[?1049h`);
    expect(clean(`${ESC}[?1000;1006;1004h${ESC}[?25l`)).toBe(`${ESC}[?25l`);
    expect(clean(`${ESC}[200~rm -rf /${ESC}[201~`)).toBe("rm -rf /");
  });

  it("passes HTML through as inert text (the terminal renders characters, not markup)", () => {
    expect(clean(`<img src=x onerror=alert(1)><script>alert(1)</script>`)).toBe(`<img src=x onerror=alert(1)><script>alert(1)</script>`);
  });
});

describe("sanitizer: rendering sequences survive", () => {
  it("keeps colours, cursor movement, erasing and the alternate screen", () => {
    const s = `${ESC}[1;32mok${ESC}[0m ${ESC}[2J${ESC}[H${ESC}[10;5H${ESC}[K${ESC}[?1049h${ESC}[?25h${ESC}[3 q${ESC}(B${ESC}7${ESC}8\r\n\tx\b`;
    expect(clean(s)).toBe(s);
  });

  it("clamps count parameters to the screen size before xterm sees them", () => {
    const s = new TerminalSanitizer();
    s.setSize(80, 24);
    expect(s.write(`a${ESC}[5b`)).toBe(`a${ESC}[5b`);
    expect(s.write(`a${ESC}[999999999b`)).toBe(`a${ESC}[1920b`);
    for (const f of "ABEFedLMST") expect(s.write(`${ESC}[2147483647${f}`)).toBe(`${ESC}[24${f}`);
    for (const f of "@PXCDaGI`Z".replace("I", "")) expect(s.write(`${ESC}[2147483647${f}`)).toBe(`${ESC}[80${f}`);
    expect(s.write(`${ESC}[99999;99999H`)).toBe(`${ESC}[24;80H`);
    expect(s.write(`${ESC}[3;99999r`)).toBe(`${ESC}[3;24r`);
    // Sub-parameter forms carry counts too.
    expect(s.write(`${ESC}[2147483647:99999L`)).toBe(`${ESC}[24:24L`);
    // Small counts, defaults and sub-parameters pass unchanged.
    expect(s.write(`${ESC}[3L${ESC}[S${ESC}[;5H${ESC}[4:3m`)).toBe(`${ESC}[3L${ESC}[S${ESC}[;5H${ESC}[4:3m`);
    s.setSize(200, 50);
    expect(s.write(`${ESC}[9999M`)).toBe(`${ESC}[50M`);
  });

  it("never lets an overlong CSI accumulate", () => {
    const out = clean(`${ESC}[${"1;".repeat(100)}mX`);
    expect(out.endsWith("X")).toBe(true);
    expect(out).not.toContain(ESC);
  });
});

describe("sanitizer: long lines", () => {
  it("caps a 10 MB line and notes it once", () => {
    const out = clean("A".repeat(10 * 1024 * 1024) + "\nnext");
    expect(out.length).toBeLessThan(MAX_LINE_CHARS + 200);
    expect(out.split(LINE_TRUNCATED_NOTICE)).toHaveLength(2);
    expect(out.endsWith("\nnext")).toBe(true);
  });

  it("counts a line across writes and resets at newlines and cursor jumps", () => {
    const s = new TerminalSanitizer();
    let out = "";
    for (let i = 0; i < 40; i++) out += s.write("B".repeat(1024));
    expect(out.replace(LINE_TRUNCATED_NOTICE, "")).toBe("B".repeat(MAX_LINE_CHARS));
    expect(s.write("\r\n")).toBe("\r\n");
    const full = `${"C".repeat(MAX_LINE_CHARS)}${ESC}[1;1H${"D".repeat(10)}`;
    expect(s.write(full) === full).toBe(true);
  });
});

describe("sanitizer: streaming", () => {
  it("holds sequences split across writes and judges them whole", () => {
    const s = new TerminalSanitizer();
    expect(s.write(`a${ESC}]5`)).toBe("a");
    expect(s.write(`2;c;eA=`)).toBe("");
    expect(s.write(`=${ESC}`)).toBe("");
    expect(s.write(`\\b${ESC}[3`)).toBe("b");
    expect(s.write(`1mc`)).toBe(`${ESC}[31mc`);
  });

  it("discards a huge unterminated OSC without buffering it", () => {
    const s = new TerminalSanitizer();
    expect(s.write(`${ESC}]52;c;${"A".repeat(100_000)}`)).toBe("");
    expect(s.snapshot().pending.length).toBeLessThan(10);
    expect(s.write(`${"A".repeat(100_000)}${BEL}after`)).toBe("after");
  });

  it("gives the same result however the stream is split, and restores from a snapshot", () => {
    const nasty = [
      "plain text\r\n",
      `${ESC}[1;31mred${ESC}[0m`,
      `${ESC}]0;title${BEL}`,
      `${ESC}]52;c;AAAA${ST}`,
      `${ESC}]8;;https://a.b/${ST}link${ESC}]8;;${ST}`,
      `${ESC}P1$r${ST}`,
      `${ESC}[6n`,
      `${ESC}[?2004h`,
      "Z".repeat(5000),
      "\n",
      `${ESC}[?1049h`,
      "ünïcødé ✓ 😀",
      `${ESC}(0`,
      "\u009b32m",
      `${ESC}]8;;javascript:x${BEL}`,
    ].join("");
    const input = nasty.repeat(8);
    const whole = clean(input);
    const rng = mulberry32(7);
    for (let trial = 0; trial < 25; trial++) {
      const s = new TerminalSanitizer();
      let out = "";
      let i = 0;
      while (i < input.length) {
        const n = 1 + Math.floor(rng() * 40);
        out += s.write(input.slice(i, i + n));
        if (rng() < 0.2) s.restore(JSON.parse(JSON.stringify(s.snapshot())));
        i += n;
      }
      expect(out).toBe(whole);
    }
  });
});
