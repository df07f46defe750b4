; Python assertions (ralph: src/analysis/languages/python.ts).
; assert <expr>[, message]
(assert_statement) @assertion

; self.assertEqual(...), self.assertTrue(...), self.fail(...) — unittest
((call
  function: (attribute
    object: (identifier) @object
    attribute: (identifier) @matcher)
  arguments: (argument_list) @args) @assertion
  (#eq? @object "self")
  (#match? @matcher "^(assert|fail)"))

; pytest.raises(E), pytest.warns(W), pytest.fail(...)
((call
  function: (attribute
    object: (identifier) @object
    attribute: (identifier) @matcher)
  arguments: (argument_list) @args) @assertion
  (#eq? @object "pytest")
  (#any-of? @matcher "raises" "warns" "deprecated_call" "fail"))
