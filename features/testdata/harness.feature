Feature: the step vocabulary
  The harness's own scenarios, run against a fake implementation: test.echo
  answers its input, test.refuse rejects with the code it is given,
  test.drop drops, and any other op is unsupported.

  Background:
    Given an implementation under test

  Scenario: members set one by one reach the implementation in order
    Given the input member "text" is "a \"quoted\" \uE200 and \u{1F600}"
    And the input member "start" is 3
    And the input member "flags" is ["x", {"y": null}]
    When "test.echo" is called
    Then the output is {"text": "a \"quoted\" \uE200 and 😀", "start": 3, "flags": ["x", {"y": null}]}
    And the output member "start" is 3
    And the output member "flags[1].y" is null
    And the output member "flags" has 2 elements
    And the output member "text" starts with "a \""
    And the output member "text" contains "\uD83D\uDE00"
    And the output has no member "end"
    And the input is accepted

  Scenario: literal doc strings expand code point escapes
    Given the input member "text" is:
      """
      one\u{E200}two \n stays
      """
    When "test.echo" is called
    Then the output member "text" is "one\uE200two \\n stays"
    And the output member "text" is:
      """
      one\u{E200}two \n stays
      """

  Scenario: a json doc string reaches the implementation byte for byte
    When "test.echo" is called with:
      """json
      {"text": "\ud83d", "n": 1.50}
      """
    Then the output is:
      """json
      {"n": 1.5, "text": "\ud83d"}
      """
    And the output member "text" starts with "\ud83d"

  Scenario: a table gives members and values
    When "test.echo" is called with the members:
      | text  | plain words   |
      | n     | 12            |
      | quote | "12"          |
      | mark  | \u{E200}      |
    Then the output member "n" is 12
    And the output member "quote" is "12"
    And the output member "text" is "plain words"
    And the output member "mark" is "\uE200"

  Scenario: one call's output feeds the next
    When "test.echo" is called with {"href": "t3-citation://v1/x"}
    And the input member "again" is the previous output member "href"
    And "test.echo" is called
    Then the output member "again" equals the previous output member "href"

  Scenario Outline: refusals carry their code
    When "test.refuse" is called with {"code": "<code>"}
    Then the input is rejected
    And the input is rejected with code "<code>"

    Examples:
      | code        |
      | BAD_THING   |
      | OTHER_THING |

  Scenario: a dropped input
    When "test.drop" is called with {}
    Then the input is dropped with code "DROPPED"

  Scenario: an op nobody offers
    When "test.nothing" is called with {}
    Then the answer has error kind "unsupported"

  Scenario: an op of a suite the implementation does not offer is skipped
    When "quote.parse" is called with {"href": "x"}
    Then the input is rejected with code "NEVER_CHECKED"
