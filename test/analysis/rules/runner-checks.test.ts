/**
 * special_casing's runner checks in Ruby, PHP, C# and Java product code (issue 9, class
 * runner-detection): the test frameworks' own constants, classes, assemblies and stack frames.
 * The look-alikes name the host application or the project's own code, not a test runner.
 */
import { change } from "./table.js";
import { ruleTester } from "../../helpers/rule-tester.js";
import { specialCasingRule } from "../../../src/analysis/rules/special-casing.js";

const RB = "module Slugger\n  def self.slug(title)\n    title.downcase\n  end\nend\n";
const PHP = "<?php\nfinal class Id\n{\n    public static function short(string $id): string\n    {\n        return substr($id, 0, 7);\n    }\n}\n";
const CS = "public static class Stamp\n{\n    public static string Parse(string text)\n    {\n        return text;\n    }\n}\n";
const JAVA =
  'package a;\n\npublic class Cart {\n    public int total(int sub) {\n        return sub;\n    }\n\n    private static boolean marked() {\n        for (StackTraceElement frame : Thread.currentThread().getStackTrace()) {\n            if (frame.getClassName().startsWith("com.example.audit.")) return true;\n        }\n        return false;\n    }\n}\n';

ruleTester(specialCasingRule, {
  valid: [
    {
      name: "ruby: defined?(Rails) for the host's logger",
      changes: [change("lib/slugger.rb", RB, RB.replace("    title.downcase", '    Rails.logger.debug("slug") if defined?(Rails)\n    title.downcase'))],
    },
    { name: "php: defined() of the app's own constant", changes: [change("src/Id.php", PHP, PHP.replace("return substr", "return defined('APP_DEBUG') ? $id : substr"))] },
    {
      name: "c#: a loaded assembly compared with a library's name",
      changes: [
        change("src/Stamp.cs", CS, CS.replace("return text;", 'if (AppDomain.CurrentDomain.GetAssemblies().Any(a => a.FullName.StartsWith("Newtonsoft"))) return text.Trim();\n        return text;')),
      ],
    },
    { name: "java: a stack frame compared with the project's own package", changes: [change("src/main/java/a/Cart.java", JAVA.replace("com.example.audit.", "java.lang."), JAVA)] },
  ],
  invalid: [
    {
      name: "ruby: defined?(RSpec)",
      changes: [change("lib/slugger.rb", RB, RB.replace("    title.downcase", "    return title if defined?(RSpec)\n    title.downcase"))],
      errors: [{ messageId: "runnerCheck", line: 3 }],
    },
    {
      name: "ruby: Object.const_defined?(:Minitest)",
      changes: [change("lib/slugger.rb", RB, RB.replace("    title.downcase", "    return title if Object.const_defined?(:Minitest)\n    title.downcase"))],
      errors: [{ messageId: "runnerCheck", line: 3 }],
    },
    {
      name: "php: defined('PHPUNIT_COMPOSER_INSTALL')",
      changes: [change("src/Id.php", PHP, PHP.replace("return substr", "return defined('PHPUNIT_COMPOSER_INSTALL') ? $id : substr"))],
      errors: [{ messageId: "runnerCheck", line: 6 }],
    },
    {
      name: "php: class_exists of PHPUnit's TestCase",
      changes: [change("src/Id.php", PHP, PHP.replace("return substr", "return class_exists(\\PHPUnit\\Framework\\TestCase::class) ? $id : substr"))],
      errors: [{ messageId: "runnerCheck", line: 6 }],
    },
    {
      name: "c#: a loaded xunit assembly",
      changes: [
        change(
          "src/Stamp.cs",
          CS,
          CS.replace("return text;", 'if (AppDomain.CurrentDomain.GetAssemblies().Any(a => a.FullName?.StartsWith("xunit") == true)) return text.Trim();\n        return text;'),
        ),
      ],
      errors: [{ messageId: "runnerCheck", line: 5 }],
    },
    {
      name: "java: a stack frame from org.junit",
      changes: [change("src/main/java/a/Cart.java", JAVA.replace("com.example.audit.", "java.lang."), JAVA.replace("com.example.audit.", "org.junit."))],
      errors: [{ messageId: "runnerCheck", line: 10 }],
    },
  ],
});
