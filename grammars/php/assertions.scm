; PHPUnit assertions (ralph: src/analysis/languages/php.ts).
; $this->assertSame(...), $this->expectException(...), $this->fail(...),
; $this->expectDeprecation(...) (Symfony PHPUnit Bridge), $this->expectUserDeprecationMessage(...) (PHPUnit 11)
((member_call_expression
  object: (variable_name) @object
  name: (name) @matcher
  arguments: (arguments) @args) @assertion
  (#eq? @object "$this")
  (#match? @matcher "^(assert[A-Z]\\w*|expectException\\w*|expectDeprecation|expectUserDeprecationMessage\\w*|fail)$"))

; self::assertSame(...), static::assertTrue(...), Assert::assertEquals(...)
((scoped_call_expression
  name: (name) @matcher
  arguments: (arguments) @args) @assertion
  (#match? @matcher "^(assert[A-Z]\\w*|fail)$"))
