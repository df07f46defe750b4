; C# assertions (ralph: src/analysis/languages/csharp.ts).
; xUnit / NUnit / MSTest: Assert.Equal(...), Assert.Throws<T>(...), CollectionAssert.*, StringAssert.*
((invocation_expression
  function: (member_access_expression
    expression: (identifier) @object
    name: (_) @matcher)
  arguments: (argument_list) @args) @assertion
  (#any-of? @object "Assert" "ClassicAssert" "CollectionAssert" "StringAssert" "FileAssert" "DirectoryAssert"))

; FluentAssertions: actual.Should().Be(expected)
((invocation_expression
  function: (member_access_expression
    expression: (invocation_expression
      function: (member_access_expression
        expression: (_) @actual
        name: (identifier) @should))
    name: (_) @matcher)
  arguments: (argument_list) @args) @fluent
  (#eq? @should "Should"))
