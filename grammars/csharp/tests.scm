; C# methods (ralph: src/analysis/languages/csharp.ts). The module reads each
; method's attribute lists ([Fact], [Theory], [InlineData], [Test], [TestCase],
; [TestMethod], [DataRow], [Ignore], Skip = "...") and those of its classes.
; Flat on purpose: the C# grammar is large and nested patterns take hundreds
; of milliseconds to compile.
(method_declaration) @definition
