; Go assertions (ralph: src/analysis/languages/go.ts).
; t.Error/Errorf/Fatal/Fatalf/Fail/FailNow on a testing value
((call_expression
  function: (selector_expression
    operand: (identifier) @object
    field: (field_identifier) @matcher)
  arguments: (argument_list) @args) @assertion
  (#any-of? @matcher "Error" "Errorf" "Fatal" "Fatalf" "Fail" "FailNow"))

; testify: assert.Equal(t, want, got), require.NoError(t, err), ...
((call_expression
  function: (selector_expression
    operand: (identifier) @object
    field: (field_identifier) @matcher)
  arguments: (argument_list) @args) @testify
  (#any-of? @object "assert" "require"))
