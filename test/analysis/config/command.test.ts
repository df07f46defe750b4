/**
 * The shell reader behind every test-command comparison: splitting,
 * launcher stripping, runner identification, masks, and compareCommands in
 * both directions.
 */
import { describe, expect, it } from "vitest";
import { analyzeCommand, compareCommands, expandVariables, isPathCovered, splitShell } from "../../../src/analysis/config/command.js";

describe("splitShell", () => {
  it.each([
    ["vitest run || true", [["vitest", "run"], ["true"]], ["start", "||"]],
    [
      `echo "a && b" && jest -t 'x y'`,
      [
        ["echo", "a && b"],
        ["jest", "-t", "x y"],
      ],
      ["start", "&&"],
    ],
    [
      "pytest tests/ > out.txt 2>&1; exit 0",
      [
        ["pytest", "tests/"],
        ["exit", "0"],
      ],
      ["start", ";"],
    ],
    [
      "npm ci\n# comment\nnpm test | tee log",
      [
        ["npm", "ci"],
        ["npm", "test"],
        ["tee", "log"],
      ],
      ["start", "newline", "|"],
    ],
    ["go test \\\n  ./...", [["go", "test", "./..."]], ["start"]],
    ["(cd web && vitest run) || true", [["cd", "web"], ["vitest", "run"], ["true"]], ["start", "&&", "||"]],
    ["$(MAKE) -C sub test; { pytest; }", [["$(MAKE)", "-C", "sub", "test"], ["{", "pytest"], ["}"]], ["start", ";", ";"]],
  ])("%s", (command, words, joiners) => {
    const segments = splitShell(command);
    expect(segments.map((segment) => segment.words)).toEqual(words);
    expect(segments.map((segment) => segment.joiner)).toEqual(joiners);
  });
});

describe("analyzeCommand finds the runner behind launchers", () => {
  it.each([
    ["npx vitest run", "vitest"],
    ["pnpm exec jest --ci", "jest"],
    ["CI=1 cross-env NODE_ENV=test jest", "jest"],
    ["poetry run python -m pytest -q", "pytest"],
    ["uv run pytest", "pytest"],
    ["coverage run -m pytest", "pytest"],
    ["c8 --check-coverage vitest run", "vitest"],
    ["./node_modules/.bin/mocha", "mocha"],
    ["node --test test/", "node --test"],
    ["go test ./...", "go test"],
    ["cargo nextest run", "cargo test"],
    ["cargo +${{ matrix.channel }} test --all", "cargo test"],
    ["cargo +nightly --locked -Z unstable-options test", "cargo test"],
    ["cargo hack test --feature-powerset", "cargo test"],
    ["cargo hack --each-feature --no-dev-deps nextest run", "cargo test"],
    ["cargo +nightly miri test", "cargo test"],
    ["cargo llvm-cov --workspace --lcov", "cargo test"],
    ["cross test --target aarch64-unknown-linux-gnu", "cargo test"],
    ["rustup run 1.61.0 cargo test", "cargo test"],
    ["go1.22.4 test ./...", "go test"],
    ["npm test", "npm run test"],
    ["yarn test:unit", "npm run test:unit"],
    ["$(MAKE) test", "make"],
    ["bundle exec rspec", "rspec"],
    ["./gradlew test", "gradlew test"],
    ['bash -c "pytest tests"', "pytest"],
    ["php vendor/bin/phpunit --coverage-text", "phpunit"],
    ["php -d memory_limit=-1 vendor/bin/phpunit", "phpunit"],
    ["php artisan test --parallel", "artisan test"],
    ["./vendor/bin/pest --ci", "pest"],
    ["composer test", "composer run test"],
    ["composer run-script test -- --filter Csv", "composer run test"],
    ["sh -ec 'go test ./...'", "go test"],
    ['dotnet-coverage collect --output coverage.cobertura.xml --output-format cobertura "dotnet test"', "dotnet test"],
    ["dotnet-coverage collect -f cobertura -- dotnet test", "dotnet test"],
  ])("%s -> %s", (command, runner) => {
    expect(analyzeCommand(command).invocations.map((invocation) => invocation.runner)).toEqual([runner]);
  });

  it.each([
    "npm run build",
    "eslint .",
    "tsc --noEmit",
    "echo test",
    "vitest bench",
    "go build ./...",
    "cargo +nightly build",
    "cargo hack check --feature-powerset",
    "cargo llvm-cov report --lcov",
    "go1.22.4 build ./...",
  ])("%s runs no tests", (command) => {
    expect(analyzeCommand(command).invocations).toEqual([]);
  });

  it.each([
    ["jest || true", ["|| true"]],
    ["jest || :", ["|| :"]],
    ["jest || echo failed", ["|| echo failed"]],
    ["jest; true", ["; true"]],
    ["pytest | tee out.txt", ["| tee"]],
    ["set -o pipefail; pytest | tee out.txt", []],
    ["jest || exit 1", []],
    ["jest && echo done", []],
  ])("masks of %s", (command, masks) => {
    expect(analyzeCommand(command).masks).toEqual(masks);
  });

  it("reads c8 thresholds only when it checks coverage", () => {
    expect([...(analyzeCommand("c8 --lines 80 vitest run").invocations[0]?.thresholds ?? [])]).toEqual([]);
    expect(Object.fromEntries(analyzeCommand("c8 --check-coverage --branches=70 vitest run").invocations[0]?.thresholds ?? [])).toEqual({ branches: 70, lines: 90 });
  });
});

describe("compareCommands", () => {
  it.each([
    ["vitest run", "vitest run src/a.test.ts", /now runs vitest on "src\/a\.test\.ts" only/],
    ["pytest tests", "pytest tests -k 'not slow'", /selects tests with "-k not slow"/],
    ["pytest", "pytest --ignore=tests/test_a.py", /excludes "tests\/test_a\.py"/],
    ["pytest", "pytest --deselect tests/test_a.py::test_b", /excludes/],
    ["go test ./...", "go test -run TestA ./...", /selects tests with "-run TestA"/],
    ["cargo test", "cargo test -- --skip parser", /excludes "parser"/],
    ["jest", "jest --onlyChanged", /--onlyChanged/],
    ["pytest --cov-fail-under=90", "pytest --cov-fail-under=80", /lowers the total coverage threshold from 90% to 80%/],
    ["vitest run", "true", /no longer runs the tests/],
    ["npm test", "npm test -- --grep slow", /now runs npm run test on "slow" only/],
    ["go test ./...", "go test", /now runs go test on "\." only; before it ran "\.\/\.\.\."/],
    ["go test ./...", "go test ./pkg/...", /now runs go test on "\.\/pkg\/\.\.\." only/],
    ["go test ./pkg/...", "go test ./pkg", /now runs go test on "\.\/pkg" only/],
    ["pytest tests", 'bash -c "pytest tests/unit"', /now runs pytest on "tests\/unit" only/],
    ["dotnet test", "dotnet test tests/Unit/Unit.csproj", /now runs dotnet test on "tests\/Unit\/Unit\.csproj" only/],
  ])("%s -> %s", (before, after, message) => {
    const notes = compareCommands(before, after, "scripts.test", 3);
    expect(notes.map((note) => note.message).join("\n")).toMatch(message);
  });

  it.each([
    ["vitest run src/a.test.ts", "vitest run"],
    ["pytest tests/unit", "pytest tests"],
    ["pytest -k slow", "pytest"],
    ["jest", "jest --coverage --ci --maxWorkers=2"],
    ["pytest --cov-fail-under=80", "pytest --cov-fail-under=90"],
    ["echo hi", "echo bye"],
    ["go test ./pkg/...", "go test ./..."],
    // `go test` alone tests the current folder's package; `./...` adds every package below it (go help packages).
    ["go test -timeout=60s -race", "go test -timeout=60s -race ./..."],
    ["go test", "go test ."],
    ['dotnet test --collect:"XPlat Code Coverage"', "dotnet test --coverage --coverage-output-format cobertura"],
    ["dotnet test --coverage", 'dotnet-coverage collect --output coverage.cobertura.xml --output-format cobertura "dotnet test"'],
    ["pytest tests", "bash -c 'pytest tests'"],
  ])("%s -> %s is not narrower", (before, after) => {
    expect(compareCommands(before, after, "scripts.test", 3)).toEqual([]);
  });
});

describe("compareCommands reads every spelling of an option as one option", () => {
  it.each([
    // MSBuild's `/p:` is `-p:`, `--property:` and `-property:` (learn.microsoft.com, MSBuild command-line reference); a property is no project.
    ["dotnet test tests/A/A.csproj -c Release /p:CI=true", "dotnet test tests/A/A.csproj -c Release -p:CI=true -p:TestTfmsInParallel=false"],
    ["dotnet test tests/A/A.csproj /p:CI=true", "dotnet test tests/A/A.csproj --property:CI=true"],
    ["dotnet test A.sln /property:CI=true /v:m", "dotnet test A.sln -property:CI=true --verbosity minimal"],
    ["dotnet test A.sln /t:Test", "dotnet test A.sln -t:Test"],
    ["dotnet test A.sln --configuration Release --filter Category=Unit", "dotnet test A.sln -c Release --filter:Category=Unit"],
    ["dotnet test A.sln --filter Category=Unit", "dotnet test A.sln --filter=Category=Unit"],
    ["dotnet test A.sln", "dotnet test A.sln -- RunConfiguration.DisableParallelization=true"],
    ["dotnet test --project tests/A/A.csproj", "dotnet test tests/A/A.csproj"],
    ["cargo test --package core", "cargo test -p core"],
    ["cargo test --all", "cargo test --workspace"],
    ["cargo test -p core --features=serde", "cargo test --package=core -F serde"],
    ["go test -run=TestA ./...", "go test --run TestA ./..."],
    ["go test -short ./...", "go test --short ./..."],
    ["pytest --last-failed", "pytest --lf"],
    ["pytest --collect-only -q", "pytest --co --quiet"],
    ["pytest -k slow", "pytest -k=slow"],
    ["jest -t parser", "jest --testNamePattern parser"],
    ["vitest run -t parser", "vitest run --test-name-pattern=parser"],
    ["jest --passWithNoTests", "jest --pass-with-no-tests"],
    ["jest -o", "jest --onlyChanged"],
    ["mocha -g fast", "mocha --grep fast"],
    ["mocha --allowUncaught", "mocha --allow-uncaught"],
    ["mvn test -pl core", "mvn test --projects core"],
    ["mvn -B test", "mvn --batch-mode clean test"],
    ["mvn test -DskipITs", "mvn test -D skipITs"],
    ["mvn test", "mvn test -DskipTests=false"],
  ])("%s -> %s", (before, after) => {
    expect(compareCommands(before, after, "step", 1)).toEqual([]);
  });

  it.each([
    // The nearest cheats: a real filter, selection or skip added under one of those spellings.
    ["dotnet test A.sln /p:CI=true", "dotnet test A.sln -p:CI=true --filter:Category!=Db", /selects tests with "--filter Category!=Db"/],
    ["dotnet test A.sln", "dotnet test A.sln -t", /--list-tests/],
    ["dotnet test A.sln", "dotnet test tests/A/A.csproj", /now runs dotnet test on "tests\/A\/A\.csproj" only/],
    ["cargo test --workspace", "cargo test --package core", /selects tests with "-p core"/],
    ["go test ./...", "go test --run=TestA ./...", /selects tests with "-run TestA"/],
    ["pytest", "pytest --last-failed", /selects tests with "--lf"/],
    ["jest", "jest --test-name-pattern=parser", /selects tests with "--testNamePattern parser"/],
    ["mocha", "mocha --grep=fast", /selects tests with "--grep fast"/],
    ["mvn test", "mvn test --projects core", /selects tests with "-pl core"/],
    ["mvn verify", "mvn verify -D skipTests", /-DskipTests/],
    ["mvn test", "mvn test -Dtest=ParserTest", /selects tests with "-Dtest ParserTest"/],
  ])("%s -> %s still narrows", (before, after, message) => {
    expect(
      compareCommands(before, after, "step", 1)
        .map((note) => note.message)
        .join("\n"),
    ).toMatch(message);
  });
});

describe("helpers", () => {
  it("expands make variables, $(MAKE) included", () => {
    expect(
      expandVariables(
        "$(PY) -m pytest ${ARGS} && $(MAKE) lint",
        new Map([
          ["PY", "python3"],
          ["ARGS", "tests"],
        ]),
      ),
    ).toBe("python3 -m pytest tests && make lint");
  });

  it.each([
    ["tests", "tests/test_a.py", true],
    ["tests/", "tests/unit", true],
    ["./tests", "tests/unit/x.py", true],
    ["test/**/*.test.ts", "test/unit/**/*.test.ts", true],
    ["tests/test_a.py", "tests", false],
    ["src", "tests", false],
  ])("isPathCovered(%s, %s) is %s", (wide, narrow, expected) => {
    expect(isPathCovered(wide, narrow)).toBe(expected);
  });
});
