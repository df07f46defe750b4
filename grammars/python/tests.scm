; Python test declarations and runtime skips (ralph: src/analysis/languages/python.ts).
; @definition: every function; the module decides which are tests (pytest
; `test*` functions and `Test*` class methods, unittest TestCase methods).
(function_definition
  name: (identifier) @name
  body: (block) @body) @definition

; pytest.skip("why"), pytest.xfail("why"), pytest.importorskip("mod"), self.skipTest("why")
((call
  function: (attribute
    object: (identifier) @object
    attribute: (identifier) @method)
  arguments: (argument_list) @args) @skip
  (#any-of? @object "pytest" "self")
  (#any-of? @method "skip" "xfail" "importorskip" "skipTest"))
