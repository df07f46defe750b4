; Ruby test declarations and runtime skips (ralph: src/analysis/languages/ruby.ts).
; RSpec groups and examples, minitest/ActiveSupport `test "name" do`: calls
; without a receiver (or on RSpec), with or without a block.
((call
  method: (identifier) @method) @call
  (#match? @method "^(describe|context|feature|x?describe|xcontext|xfeature|fdescribe|fcontext|ffeature|it|its|specify|example|scenario|xit|xits|xspecify|xexample|xscenario|fit|fspecify|fexample|fscenario|focus|pending|skip|test)$"))

; minitest: def test_* inside a test class
(method
  name: (identifier) @name) @definition

; skip "why" / pending "why" inside an example, and their bare forms
((call
  !receiver
  method: (identifier) @skip_method) @skip
  (#any-of? @skip_method "skip" "pending"))
((identifier) @bare_skip
  (#any-of? @bare_skip "skip" "pending"))
