; Go test declarations, subtests and skips (ralph: src/analysis/languages/go.ts).
; @definition: every top-level function; the module keeps `TestXxx(t *testing.T)`
; and `FuzzXxx(f *testing.F)` as tests and the rest as non-test functions.
(function_declaration
  name: (identifier) @name
  parameters: (parameter_list) @params
  body: (block) @body) @definition

; t.Run("name", func(t *testing.T) {...}) subtests and t.Skip/Skipf/SkipNow
((call_expression
  function: (selector_expression
    operand: (identifier) @object
    field: (field_identifier) @method)
  arguments: (argument_list) @args) @call
  (#any-of? @method "Run" "Skip" "Skipf" "SkipNow"))

; testify suite methods: func (s *CalcSuite) TestAdd() { ... }, run by suite.Run
(method_declaration
  receiver: (parameter_list) @receiver
  name: (field_identifier) @name
  body: (block) @body) @method
