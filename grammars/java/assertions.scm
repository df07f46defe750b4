; Java assertions (ralph: src/analysis/languages/java.ts): JUnit 4/5
; assert*/fail, AssertJ and Hamcrest assertThat, Mockito verify.
((method_invocation
  name: (identifier) @matcher
  arguments: (argument_list) @args) @assertion
  (#match? @matcher "^(assert[A-Z]\\w*|assertThat|fail|verify)$"))
