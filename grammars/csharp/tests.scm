; C# methods (ralph: src/analysis/languages/csharp.ts). The module reads each
; method's attribute lists ([Fact], [Theory], [InlineData], [Test], [TestCase],
; [TestMethod], [DataRow], [Ignore], Skip = "...") and those of its classes.
(method_declaration
  name: (identifier) @name) @definition
