; C# (ralph: src/analysis/languages/csharp.ts): one flat query for tests and
; assertions. Every method (its attribute lists say whether it is a test:
; [Fact], [Theory] + [InlineData], [Test], [TestCase], [TestMethod], [DataRow],
; [Ignore], Skip = "...") and every invocation (Assert.X(...),
; CollectionAssert/StringAssert, FluentAssertions `x.Should().X(...)`).
; Flat on purpose: over this large grammar each pattern costs ~20 ms to
; compile even when it is one node, and the nested assertion pattern it
; replaces took 250-300 ms.
(method_declaration) @definition

(invocation_expression) @call
