; Java methods (ralph: src/analysis/languages/java.ts). The module reads each
; method's annotations (@Test, @ParameterizedTest, @Disabled, @Ignore, sources)
; and those of its enclosing classes.
(method_declaration
  name: (identifier) @name
  body: (block) @body) @definition
