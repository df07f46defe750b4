; C# (ralph: src/analysis/languages/csharp.ts): one flat query for tests and
; assertions. Every method (its attribute lists say whether it is a test:
; [Fact], [Theory] + [InlineData], [Test], [TestCase], [TestMethod], [DataRow],
; [Ignore], Skip = "...") and every invocation (Assert.X(...),
; CollectionAssert/StringAssert, FluentAssertions `x.Should().X(...)`).
; Flat and in one file on purpose: compiling a query over this large grammar
; costs ~20 ms per file even for one pattern, and a nested assertion pattern
; took 250-300 ms.
(method_declaration) @definition

(invocation_expression) @call
