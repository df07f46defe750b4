; Ruby assertions (ralph: src/analysis/languages/ruby.ts).
; RSpec: expect(x).to eq(y), expect { }.to raise_error(E), is_expected.not_to be_nil, x.should eq(y)
((call
  method: (identifier) @to
  arguments: (argument_list) @args) @expectation
  (#any-of? @to "to" "not_to" "to_not" "should" "should_not"))

; minitest: assert_equal 1, x / refute_nil x / flunk
((call
  !receiver
  method: (identifier) @matcher) @assertion
  (#match? @matcher "^(assert|refute|flunk)"))

; minitest/spec: _(x).must_equal 1 / value(x).wont_be_nil
((call
  receiver: (_)
  method: (identifier) @matcher) @assertion
  (#match? @matcher "^(must|wont)_"))
