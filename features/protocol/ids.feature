Feature: Request ids
  The runner keeps many requests in flight and matches answers by id, so an implementation
  may answer in any order, but must echo each id exactly.

  Background:
    Given an implementation under test

  @PROTO-ID-001
  Scenario Outline: The id is echoed with its type and value
    When it is sent the request line:
      """
      {"id":<id>,"op":"hello","input":{"protocol":1}}
      """
    Then the answer's id is <id>

    Examples:
      | id                |
      | 0                 |
      | 9007199254740991  |
      | -9007199254740991 |
      | "a string id"     |
      | "😀"              |

  @PROTO-ID-002 @PROTO-STDIO-002
  Scenario: Pipelined requests are all answered, in any order
    When it is sent the request lines:
      """
      {"id":10,"op":"hello","input":{"protocol":1}}
      {"id":11,"op":"conform.no-such-op","input":{}}
      {"id":"twelve","op":"hello","input":{"protocol":1}}
      """
    Then every request is answered exactly once
