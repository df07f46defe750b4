/**
 * A refusal of a null value is the same refusal whatever error it raises
 * (rules/validation.ts isEquivalentGuard, nullTestedName): `serviceCtor ??
 * throw new NullReferenceException(…)` rewritten as
 * `ArgumentNullException.ThrowIfNull(serviceCtor)` still refuses a null
 * `serviceCtor` (sweep of AutoMapper/AutoMapper f937b0fe44). The same holds
 * for Java's `Objects.requireNonNull`, Python's `is None`, Ruby's `nil?`,
 * PHP's `=== null` and JS's `== null`. The nearest cheats drop the null
 * check or move it onto another value, and still fire.
 */
import { describe, it } from "vitest";
import { change, type RuleCase, expectFindings } from "./table.js";

const row = (name: string, path: string, before: string, after: string, findings: string[]): RuleCase => ({ name, changes: [change(path, before, after)], findings });
const bypass = (path: string): string => `validation_bypass/high ${path}`;

const CS_BEFORE =
  "class Mapper\n{\n    public Mapper(IConfigurationProvider configuration, Factory serviceCtor)\n    {\n        _configuration = (IGlobalConfiguration)configuration ?? throw new ArgumentNullException(nameof(configuration));\n        _serviceCtor = serviceCtor ?? throw new NullReferenceException(nameof(serviceCtor));\n    }\n}\n";
const JAVA_BEFORE =
  'class Mapper {\n  Mapper(Config config, Factory factory) {\n    if (factory == null) {\n      throw new IllegalArgumentException("factory");\n    }\n    this.config = config;\n    this.factory = factory;\n  }\n}\n';
const PY_BEFORE = 'def connect(host, port):\n    if host is None:\n        raise ValueError("host is required")\n    return Connection(host, port)\n';
const RB_BEFORE = 'class Client\n  def initialize(host, port)\n    raise ArgumentError, "host is required" if host.nil?\n    @host = host\n    @port = port\n  end\nend\n';
const PHP_BEFORE =
  "<?php\n\nclass Client\n{\n    public function __construct(?string $host, int $port)\n    {\n        if ($host === null) {\n            throw new \\InvalidArgumentException('host is required');\n        }\n        $this->host = $host;\n        $this->port = $port;\n    }\n}\n";
const TS_BEFORE = 'export function connect(host: string | null, port: number): Connection {\n  if (host == null) throw new TypeError("host is required");\n  return new Connection(host, port);\n}\n';

const valid: RuleCase[] = [
  row(
    "csharp: ?? throw NullReferenceException rewritten as ArgumentNullException.ThrowIfNull",
    "src/Mapper.cs",
    CS_BEFORE,
    "class Mapper\n{\n    public Mapper(IConfigurationProvider configuration, Factory serviceCtor)\n    {\n        ArgumentNullException.ThrowIfNull(configuration);\n        ArgumentNullException.ThrowIfNull(serviceCtor);\n        _configuration = (IGlobalConfiguration)configuration;\n        _serviceCtor = serviceCtor;\n    }\n}\n",
    [],
  ),
  row(
    "java: if (x == null) throw IllegalArgumentException rewritten as Objects.requireNonNull",
    "src/main/java/Mapper.java",
    JAVA_BEFORE,
    'class Mapper {\n  Mapper(Config config, Factory factory) {\n    this.config = config;\n    this.factory = Objects.requireNonNull(factory, "factory");\n  }\n}\n',
    [],
  ),
  row(
    "python: is None raising ValueError now raising TypeError",
    "app/net.py",
    PY_BEFORE,
    'def connect(host, port):\n    if host is None:\n        raise TypeError("host must be a string")\n    return Connection(host, port)\n',
    [],
  ),
  row(
    "ruby: nil? raising ArgumentError now raising TypeError",
    "lib/client.rb",
    RB_BEFORE,
    'class Client\n  def initialize(host, port)\n    raise TypeError, "host must be a String" if host.nil?\n    @host = host\n    @port = port\n  end\nend\n',
    [],
  ),
  row(
    "php: === null raising InvalidArgumentException now raising TypeError",
    "src/Client.php",
    PHP_BEFORE,
    "<?php\n\nclass Client\n{\n    public function __construct(?string $host, int $port)\n    {\n        if ($host === null) {\n            throw new \\TypeError('host must be a string');\n        }\n        $this->host = $host;\n        $this->port = $port;\n    }\n}\n",
    [],
  ),
  row(
    "typescript: == null raising TypeError now raising RangeError",
    "src/net.ts",
    TS_BEFORE,
    'export function connect(host: string | null, port: number): Connection {\n  if (host === null || host === undefined) throw new RangeError("host is required");\n  return new Connection(host, port);\n}\n',
    [],
  ),
];

const invalid: RuleCase[] = [
  row(
    "csharp: the null check of serviceCtor dropped, configuration's rewritten",
    "src/Mapper.cs",
    CS_BEFORE,
    "class Mapper\n{\n    public Mapper(IConfigurationProvider configuration, Factory serviceCtor)\n    {\n        ArgumentNullException.ThrowIfNull(configuration);\n        _configuration = (IGlobalConfiguration)configuration;\n        _serviceCtor = serviceCtor;\n    }\n}\n",
    [bypass("src/Mapper.cs")],
  ),
  row(
    "java: the null refusal moved onto another parameter",
    "src/main/java/Mapper.java",
    JAVA_BEFORE,
    'class Mapper {\n  Mapper(Config config, Factory factory) {\n    this.config = Objects.requireNonNull(config, "config");\n    this.factory = factory;\n  }\n}\n',
    [bypass("src/main/java/Mapper.java")],
  ),
  row(
    "python: is None made a test of another value",
    "app/net.py",
    PY_BEFORE,
    'def connect(host, port):\n    if port is None:\n        raise TypeError("port is required")\n    return Connection(host, port)\n',
    [bypass("app/net.py")],
  ),
  row(
    "typescript: the null test replaced by a test of the port",
    "src/net.ts",
    TS_BEFORE,
    'export function connect(host: string | null, port: number): Connection {\n  if (port == null) throw new RangeError("port is required");\n  return new Connection(host as string, port);\n}\n',
    [bypass("src/net.ts")],
  ),
  // A falsy test is no null test: it refuses "" and 0 too (a cold review's cheats).
  row(
    "javascript: if (!name) throw -> if (name == null) throw: the empty string now accepted",
    "src/user.js",
    "export function createUser(name) {\n  if (!name) throw new Error('name is required');\n  return { name };\n}\n",
    "export function createUser(name) {\n  if (name == null) throw new TypeError('name is required');\n  return { name };\n}\n",
    [bypass("src/user.js")],
  ),
  row(
    "python: if not host -> if host is None: the empty string now accepted",
    "app/net.py",
    'def connect(host, port):\n    if not host:\n        raise ValueError("host is required")\n    return Connection(host, port)\n',
    PY_BEFORE.replace('raise ValueError("host is required")', 'raise TypeError("host is required")'),
    [bypass("app/net.py")],
  ),
  // A loose `== null` takes undefined too; `=== null` does not.
  row(
    "typescript: == null -> === null: undefined now accepted",
    "src/net.ts",
    TS_BEFORE,
    'export function connect(host: string | null, port: number): Connection {\n  if (host === null) throw new RangeError("host is required");\n  return new Connection(host, port);\n}\n',
    [bypass("src/net.ts")],
  ),
];

describe("a null refusal rewritten with another error class is kept", () => {
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
