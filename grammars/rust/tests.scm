; Rust functions (ralph: src/analysis/languages/rust.ts). The module reads the
; attribute items before each function: #[test], #[tokio::test] and other
; *::test, #[rstest], #[test_case(...)], #[ignore], #[should_panic].
(function_item
  name: (identifier) @name
  body: (block) @body) @definition
