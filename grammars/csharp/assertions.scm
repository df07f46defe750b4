; C# assertions (ralph: src/analysis/languages/csharp.ts): every invocation;
; the module keeps Assert.X(...) / CollectionAssert / StringAssert / ClassicAssert
; calls and FluentAssertions `actual.Should().X(...)`. Flat on purpose: a
; nested pattern over this grammar took 250-300 ms to compile, this one ~20 ms.
(invocation_expression) @call
