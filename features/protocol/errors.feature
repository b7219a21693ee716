Feature: Errors and rejections
  An error is the implementation saying it could not do the job; a rejection is the job
  done: the op refused its input. The two never mix, so a parser that refuses a bad link
  is credited, and one that crashes on it is not.

  Background:
    Given an implementation under test

  @PROTO-ERROR-001 @PROTO-ERROR-002
  Scenario: An op nobody offers is unsupported
    When it is sent the request line:
      """
      {"id":1,"op":"conform.no-such-op","input":{}}
      """
    Then the answer has error kind "unsupported"

  @PROTO-ERROR-003
  Scenario: An input without the op's shape is a bad request
    When it is sent the request line:
      """
      {"id":2,"op":"hello","input":"not an object"}
      """
    Then the answer has error kind "bad_request"

  @PROTO-ERROR-003
  Scenario Outline: A member of an input named twice is a bad request, even when both say the same
    When "<op>" is called with <input>
    Then the answer has error kind "bad_request"

    Examples:
      | op              | input                   |
      | quote.parse     | {"href":"x","href":"x"} |
      | quote.normalize | {"text":"a","text":"a"} |
