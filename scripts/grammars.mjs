#!/usr/bin/env node
// Grammars: copies the pinned tree-sitter wasm grammars from their source
// packages (tree-sitter-wasms, or a grammar's own package where it ships a
// .wasm) into grammars/<lang>/<lang>.wasm and checks each
// against grammars/manifest.json (source package, version, ABI, sha256).
// A grammar whose bytes differ from the manifest fails the build, so a
// changed package can never slip in unnoticed (STYLE.md §7).
//
//   node scripts/grammars.mjs            copy + verify (run by scripts/build.mjs)
//   node scripts/grammars.mjs --update   copy, then rewrite the manifest from what was copied
//   node scripts/grammars.mjs --check    verify only (no copying)
//   node scripts/grammars.mjs --bench    per grammar, in fresh processes: load time
//                                        (runtime + grammar + query files), first parse,
//                                        wall time to exit with and without --liftoff-only,
//                                        and warm parse throughput (MB/s)
//
// The .wasm files are build output (.gitignore); the manifest and the query
// files beside them are committed.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const GRAMMARS_DIR = join(ROOT, "grammars");
const MANIFEST_PATH = join(GRAMMARS_DIR, "manifest.json");

/** A grammar in tree-sitter-wasms: `out/tree-sitter-<name>.wasm`. */
const fromWasms = (name) => ({ package: "tree-sitter-wasms", path: `out/tree-sitter-${name}.wasm`, name });

/**
 * ralph language id -> where its wasm grammar comes from: the package, the
 * file's path inside it, and the grammar's name. Bash comes from
 * tree-sitter-bash itself: tree-sitter-wasms 0.1.13's bash scanner imports a
 * function web-tree-sitter 0.25 does not provide and throws on every `case`
 * statement ("resolved is not a function").
 */
const GRAMMARS = {
  python: fromWasms("python"),
  go: fromWasms("go"),
  rust: fromWasms("rust"),
  java: fromWasms("java"),
  csharp: fromWasms("c_sharp"),
  ruby: fromWasms("ruby"),
  php: fromWasms("php"),
  bash: { package: "tree-sitter-bash", path: "tree-sitter-bash.wasm", name: "bash" },
};

/** Hex sha256 of a file's bytes. */
function sha256(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The language ABI a wasm grammar was generated for, read by loading it into
 * web-tree-sitter (the runtime that will load it later), so a grammar the
 * runtime cannot load fails here, at build time.
 */
async function readAbi(bytes) {
  const { Parser, Language } = await import("web-tree-sitter");
  await Parser.init();
  const language = await Language.load(bytes);
  return language.abiVersion;
}

/** Copies (unless checkOnly) and verifies every grammar; returns the manifest it saw. */
export async function syncGrammars({ update = false, checkOnly = false, log = console.error } = {}) {
  const require = createRequire(import.meta.url);
  /** An installed source package's folder and version, or null when it is not installed. */
  const installed = (pkg) => {
    try {
      const pkgPath = require.resolve(`${pkg}/package.json`);
      return { dir: dirname(pkgPath), version: JSON.parse(readFileSync(pkgPath, "utf8")).version };
    } catch {
      return null;
    }
  };
  const manifest = existsSync(MANIFEST_PATH) ? JSON.parse(readFileSync(MANIFEST_PATH, "utf8")) : {};
  const next = {};
  const problems = [];
  for (const [lang, source] of Object.entries(GRAMMARS)) {
    const file = `${lang}/${lang}.wasm`;
    const target = join(GRAMMARS_DIR, file);
    const pkg = installed(source.package);
    if (!checkOnly) {
      if (pkg === null) {
        if (!existsSync(target)) problems.push(`${lang}: ${source.package} is not installed (run npm ci) and ${file} is missing`);
      } else {
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(join(pkg.dir, source.path), target);
      }
    }
    if (!existsSync(target)) {
      problems.push(`${lang}: ${file} is missing`);
      continue;
    }
    const bytes = readFileSync(target);
    const entry = { package: source.package, version: pkg?.version ?? manifest[lang]?.version, file, grammar: source.name, abi: await readAbi(bytes), sha256: sha256(bytes) };
    next[lang] = entry;
    const pinned = manifest[lang];
    if (!update) {
      if (!pinned) problems.push(`${lang}: not in grammars/manifest.json (run node scripts/grammars.mjs --update)`);
      else if (pinned.sha256 !== entry.sha256 || pinned.abi !== entry.abi) {
        problems.push(
          `${lang}: ${file} is ${entry.package}@${entry.version} ABI ${entry.abi} sha256 ${entry.sha256.slice(0, 12)}…, the manifest pins ${pinned.package}@${pinned.version} ABI ${pinned.abi} sha256 ${pinned.sha256.slice(0, 12)}…`,
        );
      }
    }
  }
  if (update) {
    writeFileSync(MANIFEST_PATH, JSON.stringify(next, null, 2) + "\n");
    log(`grammars: wrote ${Object.keys(next).length} entries to grammars/manifest.json`);
  }
  if (problems.length > 0) {
    throw new Error(
      `grammars do not match grammars/manifest.json:\n  ${problems.join("\n  ")}\nInstall the pinned source packages (npm ci), or after a deliberate upgrade run: node scripts/grammars.mjs --update`,
    );
  }
  return update ? next : manifest;
}

/** Sample sources per grammar for --bench: a small test file, repeated for throughput. */
const BENCH_SAMPLES = {
  python:
    "import pytest\n\n@pytest.mark.parametrize('a, b', [(1, 2), (3, 4)])\ndef test_add(a, b):\n    assert add(a, 1) == b\n\nclass TestCart:\n    def test_total(self):\n        self.assertEqual(Cart().total, 0)\n",
  go: 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\ttests := []struct{ a, want int }{{1, 2}, {3, 4}}\n\tfor _, tc := range tests {\n\t\tif got := Add(tc.a, 1); got != tc.want {\n\t\t\tt.Errorf("got %d", got)\n\t\t}\n\t}\n}\n',
  rust: "#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 1), 2);\n    }\n}\n",
  java: "class CalcTest {\n    @Test\n    void adds() {\n        assertEquals(2, Calc.add(1, 1));\n        assertThat(list).contains(1);\n    }\n}\n",
  csharp: "public class CalcTests\n{\n    [Theory]\n    [InlineData(1, 2)]\n    public void Adds(int a, int b)\n    {\n        Assert.Equal(b, Calc.Add(a, 1));\n    }\n}\n",
  ruby: 'RSpec.describe Calc do\n  it "adds" do\n    expect(Calc.add(1, 1)).to eq(2)\n  end\nend\n',
  bash: 'set -e\nnpm test -- --run || true\nfor f in *.py; do pytest "$f" -q; done\n',
  php: "<?php\nfinal class CalcTest extends TestCase\n{\n    public function testAdds(): void\n    {\n        $this->assertSame(2, Calc::add(1, 1));\n    }\n}\n",
};

/** One --bench measurement in this (fresh) process: load, first parse, and optionally throughput; prints JSON. */
async function benchChild(lang, repeat) {
  const startedAt = performance.now();
  const { Parser, Language, Query } = await import("web-tree-sitter");
  await Parser.init();
  const language = await Language.load(readFileSync(join(GRAMMARS_DIR, lang, `${lang}.wasm`)));
  const parser = new Parser();
  parser.setLanguage(language);
  for (const file of readdirSync(join(GRAMMARS_DIR, lang)).filter((name) => name.endsWith(".scm"))) {
    new Query(language, readFileSync(join(GRAMMARS_DIR, lang, file), "utf8"));
  }
  const loadedAt = performance.now();
  parser.parse(BENCH_SAMPLES[lang]).delete();
  const parsedAt = performance.now();
  let mbPerS = null;
  if (repeat > 0) {
    const big = BENCH_SAMPLES[lang].repeat(repeat);
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      parser.parse(big).delete();
      best = Math.min(best, performance.now() - t0);
    }
    mbPerS = Buffer.byteLength(big) / 1e6 / (best / 1000);
  }
  process.stdout.write(JSON.stringify({ loadMs: loadedAt - startedAt, firstParseMs: parsedAt - loadedAt, mbPerS }) + "\n");
}

/** --bench: fresh processes per grammar and mode; medians of `runs`. */
async function bench(runs) {
  const { spawnSync } = await import("node:child_process");
  const self = fileURLToPath(import.meta.url);
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const wall = (args) => {
    const t0 = performance.now();
    const result = spawnSync(process.execPath, args, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(result.stderr);
    return { ms: performance.now() - t0, data: result.stdout ? JSON.parse(result.stdout) : null };
  };
  const floor = median(Array.from({ length: runs }, () => wall(["-e", "0"]).ms));
  console.log(`node -e 0 (floor): ${floor.toFixed(0)} ms; medians of ${runs} fresh processes`);
  console.log("grammar  mode          wall ms  load ms  1st parse ms  MB/s (warm)");
  for (const lang of Object.keys(GRAMMARS)) {
    for (const mode of ["tier-up", "liftoff-only"]) {
      const flags = mode === "liftoff-only" ? ["--liftoff-only"] : [];
      const quick = Array.from({ length: runs }, () => wall([...flags, self, "--bench-child", lang, "0"]));
      const warm = wall([...flags, self, "--bench-child", lang, "3000"]).data;
      const row = [
        lang.padEnd(8),
        mode.padEnd(12),
        median(quick.map((run) => run.ms))
          .toFixed(0)
          .padStart(8),
        median(quick.map((run) => run.data.loadMs))
          .toFixed(1)
          .padStart(8),
        median(quick.map((run) => run.data.firstParseMs))
          .toFixed(1)
          .padStart(13),
        warm.mbPerS.toFixed(2).padStart(12),
      ];
      console.log(row.join(" "));
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  if (args[0] === "--bench-child") {
    await benchChild(args[1], Number(args[2]));
    process.exit(0);
  }
  if (args.includes("--bench")) {
    await bench(Number(process.env.RUNS ?? 7));
    process.exit(0);
  }
  try {
    const manifest = await syncGrammars({ update: args.includes("--update"), checkOnly: args.includes("--check") });
    console.error(`grammars: ${Object.keys(manifest).length} grammars verified against grammars/manifest.json`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
