; PHP methods and runtime skips (ralph: src/analysis/languages/php.ts). The module
; decides which methods PHPUnit runs: test* methods, @test docblocks, #[Test].
(method_declaration
  name: (name) @name
  body: (compound_statement) @body) @definition

; $this->markTestSkipped('why'), $this->markTestIncomplete('why')
((member_call_expression
  object: (variable_name) @object
  name: (name) @method
  arguments: (arguments) @args) @skip
  (#eq? @object "$this")
  (#any-of? @method "markTestSkipped" "markTestIncomplete"))

; self::markTestSkipped('why'), static::markTestIncomplete()
((scoped_call_expression
  name: (name) @method
  arguments: (arguments) @args) @skip
  (#any-of? @method "markTestSkipped" "markTestIncomplete"))
