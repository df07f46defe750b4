/**
 * The relation an assertion checks, whatever framework spells it, and ONE
 * strength table per relation shared by every framework (DESIGN.md, "Tests
 * are judged by what they check"; issue 9, "The model: conservation of
 * checks"). `expect(x).toBe(1)`, `assert.equal(x, 1)`, `t.is(x, 1)`,
 * `assert x == 1`, `self.assertEqual(x, 1)`, `assert.Equal(t, 1, x)`,
 * `if x != 1 { t.Errorf }`, `assertEquals(1, x)`, `Assert.Equal(1, x)`,
 * `expect(x).to eq(1)`, `assert_equal 1, x` and `$this->assertSame(1, $x)`
 * are all the relation `equal`.
 */

/**
 * What an assertion requires of its subject:
 * - `equal`: the subject is the expected value (strict or deep: frameworks blur the two, so they are one relation);
 * - `partial`: the subject has at least the expected fields (`toMatchObject`, `like`, `assertDictContainsSubset`);
 * - `contains`: the subject contains the expected element or substring (`toContain`, `assert x in y`, `includes`, `toMatch("s")`);
 * - `match`: the subject matches a pattern (`toMatch(/re/)`, `assertRegex`, `assert_match`);
 * - `throws`: running the subject raises (the expected holds the error type and/or message);
 * - `warns`: running the subject emits a warning (`pytest.warns`, `assertWarns`);
 * - `greater` / `less`: an order against the expected bound (`toBeGreaterThan(0)`, `assert n > 0`);
 * - `type`: the subject is an instance of the expected type (`toBeInstanceOf`, `isinstance`, `assertIsInstance`);
 * - `length`: the subject has the expected length or count (`toHaveLength`, `assert.Len`, `assertCount`);
 * - `called`: a mock was called (with the expected arguments when given);
 * - `snapshot`: the subject equals a stored snapshot;
 * - `truthy` / `falsy` / `nullish` / `defined`: existence and truthiness checks;
 * - `helper`: a call to a helper that asserts (its own checks are resolved from the helper's facts);
 * - `other`: an assertion whose relation is not known (a custom matcher): judged by the framework's strength.
 */
export type Relation =
  "equal" | "partial" | "contains" | "match" | "throws" | "warns" | "greater" | "less" | "type" | "length" | "called" | "snapshot" | "truthy" | "falsy" | "nullish" | "defined" | "helper" | "other";

/**
 * How much a check of each relation pins down, 0-3 (the scale of
 * facts.ts AssertionFact.strength): `base` without an expected value,
 * `withExpected` with one. One table for all frameworks: a `toMatch("s")`
 * and an `assert.ok(s.includes("s"))` are both `contains` and weigh the same.
 * A negated check weighs 1 whatever its relation (it accepts every value but one).
 * `throws`/`warns` gain one step for the error type and one for the message
 * (see {@link checkStrength}).
 */
export const RELATION_STRENGTH: Readonly<Record<Relation, { base: 0 | 1 | 2 | 3; withExpected: 0 | 1 | 2 | 3 }>> = {
  equal: { base: 3, withExpected: 3 },
  snapshot: { base: 3, withExpected: 3 },
  partial: { base: 1, withExpected: 2 },
  contains: { base: 1, withExpected: 2 },
  match: { base: 1, withExpected: 2 },
  throws: { base: 1, withExpected: 2 },
  warns: { base: 1, withExpected: 2 },
  greater: { base: 1, withExpected: 2 },
  less: { base: 1, withExpected: 2 },
  type: { base: 1, withExpected: 2 },
  length: { base: 1, withExpected: 3 },
  called: { base: 1, withExpected: 3 },
  truthy: { base: 1, withExpected: 1 },
  falsy: { base: 1, withExpected: 1 },
  nullish: { base: 2, withExpected: 2 },
  defined: { base: 1, withExpected: 1 },
  helper: { base: 2, withExpected: 2 },
  other: { base: 1, withExpected: 2 },
};

/**
 * Matcher names (the last segment of a framework's spelling, lower-cased,
 * with `assert`/`to`/`be`/`is`/`should` prefixes left on) -> relation. The
 * frameworks: Jest/Vitest `expect`, chai, node:assert, ava `t.*`, pytest,
 * unittest, testify, quicktest, Gomega, matryer/is, gotest.tools,
 * JUnit/AssertJ/Hamcrest, xUnit/NUnit/MSTest/FluentAssertions,
 * RSpec/minitest, PHPUnit.
 */
const MATCHER_RELATIONS: readonly [RegExp, Relation][] = [
  [
    /^(tothrow\w*|throws\w*|rejects\w*|assertraises\w*|raises|assertthrows\w*|expectthrows|should_panic|throwsexception|throwsany|throwsasync|expectexception\w*|raise_error|assert_raises|assert_nothing_raised|panics\w*|isthrownby|assertthatthrownby|assertthatexceptionoftype|errorcontains|erroris|erroras|equalerror|throw|throwasync|throwexactly\w*|throwwithinasync)$/,
    "throws",
  ],
  [/^(warns|assertwarns\w*|deprecated_call|expectwarning\w*|expectdeprecation\w*|expectuserdeprecation\w*)$/, "warns"],
  [/^(tomatchsnapshot|tomatchinlinesnapshot|tomatchfilesnapshot|snapshot|matchsnapshot|tomatchscreenshot|tohavescreenshot)$/, "snapshot"],
  [
    /^(tobe|toequal|tostrictequal|equal|equals|strictequal|deepequal|deepstrictequal|is|same|strictsame|eq|eql|deep\.equal|assertequal|assertequals|assertsame|assertidentical|assert_equal|assert_eq!?|isequalto|isequalto\w*|isequaltocomparingfieldbyfield\w*|isequalto|areequal|aresame|isequivalentto|bequivalentto|be|beequivalentto|equalvalues|exactly|jsoneq|yamleq|elementsmatch|assertlistequal|assertdictequal|asserttupleequal|assertsetequal|assertcountequal|assertitemsequal|assertmultilineequal|assertsequenceequal|assertalmostequal|assertalmostequals|indelta|inepsilon|tobecloseto|closeto|approximately|assertequalscanonicalizing|assertjsonstringequalsjsonstring|assertequalsignoringcase|containsexactly|containsexactlyelementsof|tohavereturnedwith|hasvalue|equalto|sameinstance|sameas|equivalentto|deepequals|cmpequals|contentequals|jsonequals|codecequals|beidenticalto|becomparableto|consistof)$/i,
    "equal",
  ],
  [
    /^(tomatchobject|like|containssubset|assertdictcontainssubset|subset|tohaveproperty|property|haveproperty|containskey|haskey|include\.keys|haskeys|includeproperties|hasfieldorpropertywithvalue|assertarrayhaskey|assertobjecthasproperty|assertobjecthasattribute|have_key|have_attributes|respond_to|tohaveattribute|tohaveclass|containkey|havekey|havekeywithvalue|havefield)$/i,
    "partial",
  ],
  [
    /^(tocontain|tocontainequal|include|includes|contains|containsstring|assertin|assert in|assertcontains|assertstringcontainsstring|assertstringcontainsstringignoringcase|assert_includes|assertcontainsequals|assertcontainsonly|hasitem|hasitems|containsonly|containsall|containsany|containsignoringcase|startswith|endswith|assertstringstartswith|assertstringendswith|start_with|end_with|tohavetext|tocontaintext|tohavevalue|substring|containskeys|notcontains|contain|containequivalentof|startwith|endwith|containvalue|containinorder|containmatch|stringcontains|slicecontains|mapcontains|containsubstring|containelement|containelements|haveprefix|havesuffix)$/i,
    "contains",
  ],
  [
    /^(tomatch|match|matches|regex|assertregex|assertregexpmatches|assertmatchesregularexpression|assertregexp|assert_match|regexp|matchesregex|matchespattern|tomatchpattern|matchregex|errormatches|panicmatches|matchregexp|matcherror)$/i,
    "match",
  ],
  [
    /^(tobegreaterthan|tobegreaterthanorequal|isabove|isatleast|greater|greaterorequal|assertgreater|assertgreaterequal|assertgreaterthan|assertgreaterthanorequal|isgreaterthan|isgreaterthanorequalto|isgreaterthanorequal|positive|ispositive|be_positive|tobepositive|bepositive|begreaterthan|begreaterorequalto|begreaterthanorequalto|greaterthan|greaterthanorequalto)$/i,
    "greater",
  ],
  [
    /^(tobelessthan|tobelessthanorequal|isbelow|isatmost|less|lessorequal|assertless|assertlessequal|assertlessthan|assertlessthanorequal|islessthan|islessthanorequalto|islessthanorequal|negative|isnegative|benegative|lessthan|lessthanorequalto|belessthan|belessorequalto|belessthanorequalto)$/i,
    "less",
  ],
  [
    /^(tobeinstanceof|instanceof|assertisinstance|isinstance|assert isinstance|istype|isassignablefrom|isinstanceoftype|be_a|be_an|kind_of|be_kind_of|be_instance_of|assertinstanceof|assert_kind_of|assert_instance_of|tobetypeof|typeof|a|an|isa|isinstanceof|isexactlyinstanceof|beoftype|beassignableto|assertinternaltype|assertisarray|assertisstring|assertisint|assertisbool|assertisfloat|assertisnumeric|implementsinterface|asserttype|expectassignable|tomatchtypeof|toextend|tomatchobjecttype)$/i,
    "type",
  ],
  [
    /^(tohavelength|lengthof|length|len|assertcount|hascount|hassize|hassizegreaterthan|havecount|have_attributes_count|count|tohavecount|have_length|have_size|size|ofsize|assertlen|havelength|haslength|have|have_exactly|haslen|havelen)$/i,
    "length",
  ],
  [
    /^(tohavebeencalledwith|tohavebeencalledtimes|tohavebeenlastcalledwith|tohavebeennthcalledwith|calledwith|calledoncewith|calledwithexactly|calledoncewithexactly|alwayscalledwith|assert_called_with|assert_called_once_with|assert_any_call|tohavebeencalled|tohavebeencalledonce|called|calledonce|calledtwice|assert_called|assert_called_once|assertcalled|verify|received|tobecalled|tohavereturned|wascalled|ismocked)$/i,
    "called",
  ],
  [/^(tobenull|tobeundefined|isnull|isundefined|assertisnone|assertnull|nil|null|isnil|be_nil|assert_nil|tobenil|isnone|tobenan|isnan|assertnan|benull|nullvalue|benil)$/i, "nullish"],
  [
    /^(tobedefined|isdefined|isnotnull|notnull|notnil|assertisnotnone|assertnotnull|isnotnone|exists|noerror|nil_error|assertnotnil|tobevisible|tobeattached|tobeinthedocument|tobeenabled|isnotempty|notempty|assertnotempty|tohavelengthgreaterthan|assert_not_nil|be_present|present|notbenull|notbeempty|notbenullorempty|notbenullorwhitespace|notnullvalue|isnotnil|haveoccurred|succeed|noerr|nilerror)$/i,
    "defined",
  ],
  [
    /^(tobefalsy|isfalse|assertfalse|false|befalse|be_falsey|be_falsy|be_false|assert_not|refute|tobefalse|isnotok|notok|empty|isempty|assertempty|tobeempty|be_empty|assert_empty|beempty|benullorempty)$/i,
    "falsy",
  ],
  [/^(tobetruthy|istrue|asserttrue|true|betrue|be_truthy|be_true|assert|assert!|assert_|tobetrue|ok|truthy|that|assertthat|check|require|expect|should)$/i, "truthy"],
];

/**
 * minitest/spec expectations (`x.must_equal y`, `_(x).wont_include y`) as
 * the assertion each one calls (Minitest::Expectations: must_equal is
 * assert_equal, wont_include is refute_includes, read negated apart).
 */
const MINITEST_EXPECTATIONS: ReadonlyMap<string, string> = new Map(
  (
    [
      ["equal", "assert_equal"],
      ["be_same_as", "assert_same"],
      ["be_nil", "assert_nil"],
      ["include", "assert_includes"],
      ["match", "assert_match"],
      ["be_instance_of", "assert_instance_of"],
      ["be_kind_of", "assert_kind_of"],
      ["raise", "assert_raises"],
      ["throw", "assert_throws"],
      ["be_empty", "assert_empty"],
      ["be_within_delta", "indelta"],
      ["be_close_to", "indelta"],
      ["be_within_epsilon", "inepsilon"],
      ["respond_to", "respond_to"],
    ] as const
  ).flatMap(([expectation, assertion]) => [
    [`must_${expectation}`, assertion],
    [`wont_${expectation}`, assertion],
  ]),
);

/**
 * The relation of a framework's matcher name (AssertionFact.matcher:
 * `toBe`, `assert.deepEqual`, `not.toContain`, `assert ==`, `if != t.Errorf`,
 * `assertThat.isEqualTo`, `Should().Be`, `assertSame`); `other` when no
 * table row knows it. Negation is read apart (AssertionFact.negated).
 */
export function relationOfMatcher(matcher: string): Relation {
  if (/^if !equal\b/.test(matcher)) return "equal"; // Go: if !reflect.DeepEqual(got, want) { t.Errorf }
  // Go: a returned error is the call's failure. `if err == nil { t.Errorf }` and testify's / gotest.tools' `assert.Error(t, err)`
  // expect the call `err` was bound to to fail (its `throws`; `t.Error` itself is the failure call, no relation).
  if (/^if err == nil\b/.test(matcher) || /^(?:assert|require)\.Error$/.test(matcher)) return "throws";
  // Go: `if n < 0 { t.Error }` fails on `n < 0`, so it requires `n >= 0`: an ordering's complement is the relation checked.
  const failing = /^if (<=|>=|<|>) /.exec(matcher)?.[1];
  if (failing !== undefined) return failing.startsWith("<") ? "greater" : "less";
  // A matcher object's relation (NUnit `Assert.That(x, Is.EqualTo(1))`, Hamcrest `assertThat(x, equalTo(1))`): the inner matcher's.
  const constraint = CONSTRAINT_MATCHER.exec(matcher)?.[1];
  if (constraint !== undefined) {
    if (/^Has\.(?:Count|Length)\.|^Has\.Exactly$/.test(constraint)) return "length";
    const inner = relationOfMatcher(constraint);
    if (inner !== "other") return inner;
  }
  const comparison = /^(?:assert|if|expect)\s+(==|!=|<=|>=|<|>|===|!==|in|not in|is|is not)(?:\s|$)/.exec(matcher);
  if (comparison) return relationOfOperator(comparison[1] as string);
  const parts = matcher
    .replace(/^Should\(\)\./, "") // FluentAssertions: `Should().Be` is `Be`
    .replace(/\(.*$/s, "")
    .split(/[.\s]/)
    .filter((part) => part !== "" && part !== "not" && part !== "Should()");
  // jest's `.resolves`/`.rejects` modify the matcher after them; node:assert's `assert.rejects(p, err)` is the matcher itself.
  const last = parts.filter((part, index) => !((part === "resolves" || part === "rejects") && index < parts.length - 1)).pop() ?? matcher;
  const name = MINITEST_EXPECTATIONS.get(last) ?? last.replace(/^(?:Assert|Is|Has|Does|Should)$/, "assert").toLowerCase();
  if (/^rejects\./.test(matcher) && /^(tothrow\w*)$/.test(name)) return "throws";
  for (const [pattern, relation] of MATCHER_RELATIONS) if (pattern.test(name)) return relation;
  if (/^asserts?[A-Z_]/.test(last) || /^expect[A-Z]/.test(last)) return "other";
  return "other";
}

/** A matcher object inside an assertion, as the extractors spell it: `Assert.That(Is.EqualTo)` (NUnit), `assertThat(equalTo)` (Hamcrest): the inner matcher. */
const CONSTRAINT_MATCHER = /^(?:Assert\.That|assertThat)\((.+)\)$/s;

/**
 * The segments of a matcher's name, its matcher object's included
 * (`Assert.That(Is.Not.Empty)` -> Assert, That, Is, Not, Empty); other
 * parenthesised parts dropped.
 */
export function matcherSegments(matcher: string): string[] {
  const constraint = CONSTRAINT_MATCHER.exec(matcher)?.[1];
  const name = constraint === undefined ? matcher.replace(/\(.*$/s, "") : `${matcher.replace(/\(.*$/s, "")}.${constraint}`;
  return name.split(/[.\s]/).filter((part) => part !== "");
}

/**
 * A matcher whose name states its negation, as its positive relation:
 * `assertNotEquals`, `notDeepStrictEqual`, `isNotEqualTo`, `Assert.AreNotEqual`,
 * `assert.NotEqual`, `assert_not_equal`, `refute_equal`, `assert_ne!`,
 * `assertNotSame`, `assertNotIn` -> the relation of the name without the
 * negation, and `negated: true`. Names whose negated form is a relation of
 * its own (`assertNotNull` is `defined`, `notEmpty` is `defined`,
 * `notContains` is contains negated by the table) stay as the table reads
 * them: null is returned for them, as for every name that states no negation.
 */
export function negatedMatcher(matcher: string): { relation: Relation; negated: true } | null {
  const last =
    matcher
      .replace(/^Should\(\)\./, "") // FluentAssertions: `Should().Be` is `Be`
      .replace(/\(.*$/s, "")
      .split(/[.\s]/)
      .filter((part) => part !== "")
      .pop() ?? matcher;
  if (last === "not" || relationOfMatcher(last) !== "other") return null;
  let positive: string | null = null;
  if (/^assert_ne!?$/.test(last)) positive = "assert_eq!";
  else if (/^refute_\w+$/.test(last)) positive = last.replace(/^refute_/, "assert_");
  else if (/(?:^|[a-z_])[Nn]ot(?:_|[A-Z])/.test(last) || /^not[A-Z_]/.test(last) || /^Not[A-Z]/.test(last))
    positive = last
      .replace(/_not_/, "_")
      .replace(/Not(?=[A-Z])|^not(?=[A-Z])|^not_/, "")
      .replace(/^([A-Z])/, "$1")
      // node:assert `doesNotThrow`/`doesNotReject`/`doesNotMatch`, JUnit `assertDoesNotThrow`, NUnit `Assert.DoesNotThrow`
      .replace(/[Dd]oes(?=[A-Z])/, "")
      .replace(/(Throw|^Reject)$/, "$1s");
  if (positive === null || positive === "" || positive === last) return null;
  const relation = relationOfMatcher(positive === "Equal" || positive === "Same" ? `Assert.${positive}` : positive);
  return relation === "other" ? null : { relation, negated: true };
}

/**
 * True when a matcher names the falsy relation itself (`assertFalse`,
 * `Assert.False`, `IsFalse`, `refute`, `toBeFalsy`, `assert.False`): the
 * "false" is the relation, so an extractor's `negated` flag set from the
 * same word is not a second negation.
 */
export function isFalsyMatcher(matcher: string): boolean {
  return matcherSegments(matcher).every((part) => part !== "not" && part !== "Not") && relationOfMatcher(matcher) === "falsy";
}

/** The relation a binary comparison states when it must hold (`a == b` -> equal, `a > b` -> greater, `a in b` -> contains). */
export function relationOfOperator(operator: string): Relation {
  switch (operator) {
    case "==":
    case "===":
    case "is":
    case "!=":
    case "!==":
    case "is not":
      return "equal";
    case ">":
    case ">=":
      return "greater";
    case "<":
    case "<=":
      return "less";
    case "in":
    case "not in":
      return "contains";
    default:
      return "other";
  }
}

/**
 * The strength of a check, 0-3, from the shared table: 0 for a tautology,
 * 1 for a negated check, else the relation's `base`/`withExpected`;
 * `throws`/`warns` are 1 + one per part pinned (the error type, the
 * message), at most 3.
 */
export function checkStrength(relation: Relation, parts: { hasExpected: boolean; isNegated: boolean; isTautology: boolean; errorType?: string; message?: string }): 0 | 1 | 2 | 3 {
  if (parts.isTautology) return 0;
  if (parts.isNegated) return 1;
  if (relation === "throws" || relation === "warns") {
    const pinned = Number(parts.errorType !== undefined && !BROAD_ERRORS.has(parts.errorType)) + Number(parts.message !== undefined);
    return Math.min(3, 1 + pinned) as 1 | 2 | 3;
  }
  const row = RELATION_STRENGTH[relation];
  return parts.hasExpected ? row.withExpected : row.base;
}

/** Error types too broad to pin a failure down: `raises(Exception)` checks only that something failed. */
const BROAD_ERRORS: ReadonlySet<string> = new Set(["Exception", "BaseException", "Error", "Throwable", "StandardError", "System.Exception", "\\Exception", "Object", "any"]);
