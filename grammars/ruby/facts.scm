; Ruby (ralph: src/analysis/languages/ruby.ts): one flat query for tests and
; assertions. Every call (RSpec describe/it/xit/skip/pending, expect(...).to,
; assert_*, must_*), every method (minitest def test_*), and bare
; `skip`/`pending`. The module classifies them; nested patterns over this
; grammar took over 100 ms to compile, these about 13 ms.
(call) @call

(method) @definition

((identifier) @bare_skip
  (#any-of? @bare_skip "skip" "pending"))
