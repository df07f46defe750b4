/**
 * A skip in a handler of a missing feature's error around a probe (issue 9,
 * class feature-probe-skip; sweep of mperham/connection_pool 4cfe19d306:
 * `begin Ractor rescue NameError; skip("Ractor not available") end`). The
 * skip fires only where the runtime lacks the feature, as
 * `pytest.importorskip` does: a conditional skip on the environment
 * (medium), not one on an unknown condition (critical). A handler of every
 * error, a handler around the code under test, or a probe whose handler
 * catches another error, stays critical. JS/TS, Go, Rust, C# and PHP probe
 * with conditions (`typeof X === "undefined"`, `class_exists`, build tags),
 * which skip-condition.ts reads already.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

interface ProbeCase {
  name: string;
  path: string;
  test: string;
  before: string;
  /** The skip added in a handler of the missing feature's error around a probe. */
  probed: string;
  /** Look-alikes that hide a failure of the code under test: each stays critical. */
  hiding: string[];
}

const RB = (body: string): string => `require "minitest/autorun"\n\nclass PoolTest < Minitest::Test\n  def test_ractors\n${body}    assert_equal 1, Pool.new.size\n  end\nend\n`;
const PY = (body: string): string => `import unittest\n\nimport pytest\n\nfrom lib import f\n\n\ndef test_fast():\n${body}    assert f(1) == 2\n`;
const JAVA = (body: string): string =>
  `package lib;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Assumptions;\nimport org.junit.jupiter.api.Test;\n\nclass XmlTest {\n    @Test\n    void parses() {\n${body}        assertEquals(1, Xml.parse("<a/>").size());\n    }\n}\n`;

const cases: ProbeCase[] = [
  {
    name: "ruby: an undefined constant",
    path: "test/pool_test.rb",
    test: "PoolTest > test_ractors",
    before: RB(""),
    probed: RB('    begin\n      Ractor\n    rescue NameError\n      skip("Ractor not available")\n    end\n'),
    hiding: [
      RB('    begin\n      Ractor\n    rescue StandardError\n      skip("Ractor not available")\n    end\n'),
      RB('    begin\n      Ractor\n    rescue\n      skip("Ractor not available")\n    end\n'),
      RB('    begin\n      Pool.new.start\n    rescue NameError\n      skip("Ractor not available")\n    end\n'),
    ],
  },
  {
    name: "ruby: a gem that does not load",
    path: "test/pool_test.rb",
    test: "PoolTest > test_ractors",
    before: RB(""),
    probed: RB('    begin\n      require "ractor/tvar"\n    rescue LoadError\n      skip("ractor-tvar not installed")\n    end\n'),
    hiding: [RB('    begin\n      require "ractor/tvar"\n    rescue ArgumentError\n      skip("ractor-tvar not installed")\n    end\n')],
  },
  {
    name: "python: an import",
    path: "tests/test_a.py",
    test: "test_fast",
    before: PY(""),
    probed: PY('    try:\n        import numpy\n        from numpy import linalg\n    except (ImportError, ModuleNotFoundError):\n        pytest.skip("numpy missing")\n'),
    hiding: [
      PY('    try:\n        import numpy\n    except Exception:\n        pytest.skip("numpy missing")\n'),
      PY('    try:\n        assert f(0) == 1\n    except ImportError:\n        pytest.skip("numpy missing")\n'),
    ],
  },
  {
    name: "java: a class not on the class path",
    path: "src/test/java/lib/XmlTest.java",
    test: "XmlTest > parses",
    before: JAVA(""),
    probed: JAVA(
      '        try {\n            Class.forName("javax.xml.stream.XMLInputFactory");\n        } catch (ClassNotFoundException e) {\n            Assumptions.assumeTrue(false, "StAX missing");\n        }\n',
    ),
    hiding: [JAVA('        try {\n            Xml.parse("<b/>");\n        } catch (NoClassDefFoundError e) {\n            Assumptions.assumeTrue(false, "StAX missing");\n        }\n')],
  },
];

describe.each(cases)("a skip where a feature is missing ($name)", (one) => {
  it("is a skip on the environment: medium", async () => {
    await expectFindings({ name: "probed", changes: [change(one.path, one.before, one.probed)], findings: [`test_disabled/medium ${one.path} "${one.test}"`] });
  });

  it.each(one.hiding.map((after, index) => [index, after] as const))("look-alike %i, which hides a failure, stays critical", async (_, after) => {
    await expectFindings({ name: "hiding", changes: [change(one.path, one.before, after)], findings: [`test_disabled/critical ${one.path} "${one.test}"`] });
  });
});
