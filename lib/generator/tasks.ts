// Synthetic Terminal-Bench-style tasks for demo and scale data. Written for this project (not copied from any benchmark).

export interface TaskTemplate {
  id: string;
  name: string;
  category: string;
  difficulty: "easy" | "medium" | "hard";
  instruction: string;
  /** Commands of a plausible successful solution, with short outputs. */
  solution: { cmd: string; out: string }[];
  /** Language of the project: drives which errors are realistic. */
  lang: "python" | "node" | "c" | "shell" | "rust";
}

export const TASK_TEMPLATES: TaskTemplate[] = [
  {
    id: "fix-csv-parser",
    name: "Fix the CSV parser",
    category: "software-engineering",
    difficulty: "medium",
    lang: "python",
    instruction: "The script /app/parse.py crashes on quoted fields. Fix it so that `pytest tests/` passes.",
    solution: [
      {
        cmd: "sed -n '1,40p' parse.py",
        out: "import csv\n\ndef parse(path):\n    rows = []\n    with open(path) as f:\n        for line in f:\n            rows.append(line.split(','))\n    return rows",
      },
      {
        cmd: "python - <<'EOF'\nimport re,io\nsrc=open('parse.py').read().replace(\"line.split(',')\", 'next(csv.reader([line]))')\nopen('parse.py','w').write(src)\nEOF",
        out: "",
      },
    ],
  },
  {
    id: "build-redis-from-source",
    name: "Build Redis from source",
    category: "system-administration",
    difficulty: "hard",
    lang: "c",
    instruction: "Compile Redis 7 from /src/redis and install redis-server to /usr/local/bin.",
    solution: [
      {
        cmd: "cd /src/redis && make -j4",
        out: "    CC adlist.o\n    CC quicklist.o\n    CC ae.o\n    LINK redis-server\nHint: It's a good idea to run 'make test' ;)",
      },
      { cmd: "make install", out: "    INSTALL redis-server\n    INSTALL redis-cli" },
    ],
  },
  {
    id: "train-fasttext",
    name: "Train a fastText classifier",
    category: "machine-learning",
    difficulty: "hard",
    lang: "python",
    instruction: "Train a text classifier on /data/train.txt reaching 0.85 accuracy on /data/valid.txt; save it to /app/model.bin.",
    solution: [
      { cmd: "pip install fasttext-wheel", out: "Successfully installed fasttext-wheel-0.9.2 numpy-1.26.4 pybind11-2.12.0" },
      {
        cmd: "python train.py --epoch 25 --lr 0.5",
        out: "Read 2M words\nNumber of words:  53012\nProgress: 100.0% words/sec/thread: 1203456\nP@1 0.871",
      },
    ],
  },
  {
    id: "configure-nginx-tls",
    name: "Serve a site over TLS with nginx",
    category: "system-administration",
    difficulty: "medium",
    lang: "shell",
    instruction: "Configure nginx to serve /var/www/site on port 443 with the certificate in /etc/ssl/site.",
    solution: [
      { cmd: "cp /app/site.conf /etc/nginx/conf.d/site.conf", out: "" },
      {
        cmd: "nginx -t && nginx -s reload",
        out: "nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful",
      },
    ],
  },
  {
    id: "git-recover-lost-commit",
    name: "Recover a lost commit",
    category: "version-control",
    difficulty: "easy",
    lang: "shell",
    instruction: "A commit with the file secrets-rotation.md was lost after a hard reset. Restore it onto main.",
    solution: [
      {
        cmd: "git reflog | head -5",
        out: "3f9c2ab HEAD@{0}: reset: moving to HEAD~1\n8d1e4f0 HEAD@{1}: commit: add secrets rotation runbook",
      },
      { cmd: "git cherry-pick 8d1e4f0", out: "[main 1a2b3c4] add secrets rotation runbook\n 1 file changed, 42 insertions(+)" },
    ],
  },
  {
    id: "sqlite-query-optimization",
    name: "Speed up a slow SQLite query",
    category: "data-processing",
    difficulty: "medium",
    lang: "python",
    instruction: "The report query in /app/report.sql takes 40 s. Make it run under 1 s without changing its result.",
    solution: [
      { cmd: "sqlite3 app.db 'EXPLAIN QUERY PLAN ' \"$(cat report.sql)\"", out: "QUERY PLAN\n`--SCAN orders" },
      { cmd: "sqlite3 app.db 'CREATE INDEX idx_orders_customer ON orders(customer_id, created_at);'", out: "" },
    ],
  },
  {
    id: "node-api-tests",
    name: "Make the Node API tests pass",
    category: "software-engineering",
    difficulty: "medium",
    lang: "node",
    instruction: "Fix /app so that `npm test` passes. Do not modify the tests.",
    solution: [
      { cmd: "npm ci", out: "added 312 packages, and audited 313 packages in 9s\nfound 0 vulnerabilities" },
      { cmd: "sed -i 's/res.send(user)/res.json(user)/' src/routes/users.js", out: "" },
    ],
  },
  {
    id: "rust-cli-wordcount",
    name: "Write a word-count CLI in Rust",
    category: "software-engineering",
    difficulty: "medium",
    lang: "rust",
    instruction: "Implement `wc-lite` in /app (cargo project) printing lines, words and bytes like `wc`.",
    solution: [
      {
        cmd: "cargo build --release",
        out: "   Compiling wc-lite v0.1.0 (/app)\n    Finished `release` profile [optimized] target(s) in 3.21s",
      },
    ],
  },
  {
    id: "log-anomaly-report",
    name: "Summarize anomalies in server logs",
    category: "data-processing",
    difficulty: "easy",
    lang: "python",
    instruction: "Write /app/report.json with the count of 5xx responses per hour from /var/log/app/*.log.",
    solution: [
      { cmd: "python summarize.py /var/log/app/*.log > report.json", out: "" },
      { cmd: "head -c 200 report.json", out: '{"2026-03-01T00": 12, "2026-03-01T01": 3, "2026-03-01T02": 0}' },
    ],
  },
  {
    id: "crack-zip-password",
    name: "Recover a ZIP password",
    category: "security",
    difficulty: "hard",
    lang: "shell",
    instruction: "Extract /app/secret.zip (password is a 4-digit PIN) and write its content to /app/answer.txt.",
    solution: [
      { cmd: "for p in $(seq -w 0 9999); do unzip -P $p -o -q secret.zip 2>/dev/null && echo found $p && break; done", out: "found 4721" },
    ],
  },
  {
    id: "docker-compose-healthcheck",
    name: "Fix a failing compose healthcheck",
    category: "system-administration",
    difficulty: "medium",
    lang: "shell",
    instruction: "The api service in /app/compose.yaml never becomes healthy. Fix the healthcheck.",
    solution: [{ cmd: "sed -i 's#curl -f http://localhost:8000/health#wget -qO- http://127.0.0.1:8080/health#' compose.yaml", out: "" }],
  },
  {
    id: "pandas-merge-bug",
    name: "Fix a pandas merge that drops rows",
    category: "data-processing",
    difficulty: "easy",
    lang: "python",
    instruction: "etl.py loses customers without orders. Keep them (with zero totals) and make the tests pass.",
    solution: [{ cmd: "sed -i \"s/how='inner'/how='left'/\" etl.py", out: "" }],
  },
  {
    id: "cuda-free-matmul",
    name: "Optimize a NumPy matrix multiply",
    category: "scientific-computing",
    difficulty: "medium",
    lang: "python",
    instruction: "Make /app/matmul.py at least 20x faster while keeping results within 1e-6.",
    solution: [{ cmd: "python bench.py", out: "naive: 41.2s\nvectorized: 0.38s\nmax abs diff: 2.3e-13" }],
  },
  {
    id: "c-memory-leak",
    name: "Fix a memory leak in a C server",
    category: "software-engineering",
    difficulty: "hard",
    lang: "c",
    instruction: "valgrind reports leaks in /app/server.c. Fix them; `make check` must pass with no leaks.",
    solution: [
      {
        cmd: "make && valgrind --leak-check=full ./server --selftest",
        out: "==4211== All heap blocks were freed -- no leaks are possible",
      },
    ],
  },
  {
    id: "cron-backup-rotation",
    name: "Rotate nightly backups",
    category: "system-administration",
    difficulty: "easy",
    lang: "shell",
    instruction: "Write /app/rotate.sh keeping the 7 newest archives in /backups and install it as a daily cron job.",
    solution: [{ cmd: "chmod +x rotate.sh && echo '0 3 * * * /app/rotate.sh' | crontab -", out: "" }],
  },
  {
    id: "regex-log-parser",
    name: "Parse nginx logs with a regex",
    category: "data-processing",
    difficulty: "easy",
    lang: "python",
    instruction: "Implement parse_line() in /app/logparse.py for the combined log format; tests in tests/.",
    solution: [
      {
        cmd: "python -m pytest -q tests/test_logparse.py",
        out: "........                                                                 [100%]\n8 passed in 0.21s",
      },
    ],
  },
];

export const MODELS = ["qwen3-8b", "qwen3-32b", "llama-3.3-70b", "gpt-oss-20b", "claude-sonnet-4.5", "deepseek-v3.2"];
export const AGENTS = ["terminus-2", "mini-swe-agent", "openhands", "codex-cli"];
