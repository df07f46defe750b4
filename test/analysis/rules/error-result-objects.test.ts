/**
 * A throw turned into the return of an error result object under the same
 * condition still refuses the input (languages/php.ts phpErrorReturnedBy,
 * rules/validation.ts actionClass; sweep of egulias/EmailValidator 3.x, 13
 * commits: `throw new ConsecutiveDot();` -> `return new
 * InvalidEmail(new ConsecutiveDot(), $token);`, read as a guard removed,
 * high). The reason the result wraps is the refusal's class. A guard that
 * now returns a valid result, or nothing, is a bypass.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "src/Parser/DomainPart.php";
const php = (consequence: string): string =>
  `<?php\nnamespace Egulias\\EmailValidator\\Parser;\n\nclass DomainPart\n{\n    public function checkConsecutiveDots()\n    {\n        if ($this->lexer->token['type'] === EmailLexer::S_DOT && $this->lexer->isNextToken(EmailLexer::S_DOT)) {\n            ${consequence}\n        }\n        return new ValidEmail();\n    }\n}\n`;
const BEFORE = php("throw new ConsecutiveDot();");

const cases: RuleCase[] = [
  {
    name: "the throw returned as an error result wrapping the same reason",
    changes: [change(file, BEFORE, php("return new InvalidEmail(new ConsecutiveDot(), $this->lexer->token['value']);"))],
    findings: [],
  },
  {
    name: "cheat: the exception returned instead of thrown",
    changes: [change(file, BEFORE, php("return new \\InvalidArgumentException('consecutive dots');"))],
    findings: [`validation_bypass/high ${file}`],
  },
  { name: "cheat: the guard now answers a valid result", changes: [change(file, BEFORE, php("return new ValidEmail();"))], findings: [`validation_bypass/high ${file}`] },
  { name: "cheat: the guard's throw dropped for a log line", changes: [change(file, BEFORE, php("error_log('consecutive dots');"))], findings: [`validation_bypass/high ${file}`] },
];

describe("a throw turned into an error result object", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
