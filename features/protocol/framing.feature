Feature: Framing of protocol v1
  A porting team wires its implementation to conform through standard input and output.
  Every message is one JSON object on one line, and every request gets exactly one answer,
  so that the runner can pipeline requests without ever losing track of them.

  Background:
    Given an implementation under test

  @PROTO-FRAME-001 @PROTO-FRAME-002 @PROTO-FRAME-003
  Scenario: A request on one line gets one answer on one line
    When it is sent the request line:
      """
      {"id":1,"op":"hello","input":{"protocol":1}}
      """
    Then the answer is one line of UTF-8 JSON
    And the answer's id is 1
    And the answer has an output

  @PROTO-FRAME-003 @PROTO-ERROR-002
  Scenario: An answer carries exactly one of output and error
    When it is sent the request line:
      """
      {"id":2,"op":"conform.no-such-op","input":{}}
      """
    Then the answer's id is 2
    And the answer has error kind "unsupported"

  @PROTO-FRAME-003
  Scenario Outline: The id comes back as written, on an op's answer as on hello's
    When it is sent the request line:
      """
      {"id":<id>,"op":"quote.parse","input":{"href":"t3-citation://v1/a/b/c?text=x&start=0&end=1&prefix=&suffix="}}
      """
    Then the answer's id is <id>
    And the answer's output has the members ["citation"]

    Examples:
      | id    |
      | 7     |
      | "q"   |
      | 12    |
      | "a&b" |

  @PROTO-FRAME-005
  Scenario: Unknown members of a request are grease and are ignored
    When it is sent the request line:
      """
      {"id":3,"op":"hello","input":{"protocol":1},"grease_7":{"ignore":true},"x-future":[1,2]}
      """
    Then the answer's id is 3
    And the answer has an output

  @PROTO-FRAME-006
  Scenario: A line that is not a request is answered with bad_request, and serving goes on
    When it is sent the request lines:
      """
      this is not JSON
      {"id":4,"op":"hello","input":{"protocol":1}}
      """
    Then answer 1 has error kind "bad_request"
    And answer 1's id is null
    And answer 2's id is 4
    And answer 2 has an output
