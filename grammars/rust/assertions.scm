; Rust assertion macros (ralph: src/analysis/languages/rust.ts):
; assert!, assert_eq!, assert_ne!, debug_assert*!, assert_matches!, prop_assert*!
((macro_invocation
  macro: (identifier) @matcher) @assertion
  (#match? @matcher "^(debug_)?(prop_)?assert(_eq|_ne|_matches)?$"))

; pretty_assertions::assert_eq! and other path-qualified assertion macros
((macro_invocation
  macro: (scoped_identifier
    name: (identifier) @matcher)) @assertion
  (#match? @matcher "^(debug_)?(prop_)?assert(_eq|_ne|_matches)?$"))
