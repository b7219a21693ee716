Feature: the raw protocol steps
  Run against a small in-process server that answers hello, refuses other
  ops as unsupported and lines that are not JSON as bad requests.

  Scenario: one request, one answer
    When it is sent the request line:
      """
      {"id":"x-1","op":"hello","input":{"protocol":1}}
      """
    Then the answer is one line of UTF-8 JSON
    And the answer's id is "x-1"
    And the answer has an output
    And the answer's output member "protocol" is 1
    And the answer's output has the members "name", "version", "language" and "ops"

  Scenario: several lines
    When it is sent the request lines:
      """
      not JSON
      {"id":9007199254740993,"op":"nope","input":{}}
      """
    Then answer 1 has error kind "bad_request"
    And answer 1's id is null
    And answer 2's id is 9007199254740993
    And answer 2 has error kind "unsupported"
    And the answer has error kind "bad_request"

  Scenario: pipelined ids
    When it is sent the request lines:
      """
      {"id":1,"op":"hello","input":{}}
      {"id":"1","op":"hello","input":{}}
      """
    Then every request is answered exactly once

  Scenario: the hello request and the end of input
    When it is sent the hello request
    Then the answer's id is 0
    When its standard input is closed
    Then it exits within 5 seconds
