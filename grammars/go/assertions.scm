; Go assertions (ralph: src/analysis/languages/go.ts).
; <x>.<Method>(...): the module keeps t.Error/Errorf/Fatal/Fatalf/Fail/FailNow
; on a testing value, testify's assert.X(t, ...)/require.X(t, ...), and a
; testify suite's s.X(...) inside its Test* methods.
(call_expression
  function: (selector_expression
    operand: (identifier) @object
    field: (field_identifier) @matcher)
  arguments: (argument_list) @args) @call

; testify suite assertions through an accessor: s.Require().NoError(...), s.Assert().True(...)
((call_expression
  function: (selector_expression
    operand: (call_expression
      function: (selector_expression
        operand: (identifier) @object
        field: (field_identifier) @accessor))
    field: (field_identifier) @matcher)
  arguments: (argument_list) @args) @suite_chain
  (#any-of? @accessor "Require" "Assert"))
