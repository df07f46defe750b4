; Python assertions (ralph: src/analysis/languages/python.ts).
; Patterns stay flat: query compilation cost grows with nesting and repeated
; patterns, so the module filters the method calls itself
; (self.assert*/self.fail: unittest; pytest.raises/warns/deprecated_call/fail).
; assert <expr>[, message]
(assert_statement) @assertion

; <object>.<method>(...)
(call
  function: (attribute
    object: (identifier) @object
    attribute: (identifier) @matcher)
  arguments: (argument_list) @args) @call
