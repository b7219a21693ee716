Feature: Request envelopes that are wrong
  A port that decodes the request into a typed envelope, or that trusts JSON.parse with
  it, can answer a wrong envelope with a crash, an answer with the wrong id or no answer
  at all. Each wrong envelope gets one bad_request answer, whose id is the request's when
  it is a string or an integer and null otherwise, and serving goes on.

  These are scenarios, not vectors: a vector file holds an op's input, which the exported
  loaders hand to a port's functions directly, where there is no envelope to get wrong.

  Background:
    Given an implementation under test

  @PROTO-FRAME-002 @PROTO-FRAME-006 @PROTO-ERROR-001
  Scenario Outline: A request without an op that is a string is a bad request, answered with its id
    When it is sent the request line:
      """
      {"id":<id>,<members>}
      """
    Then the answer has error kind "bad_request"
    And the answer's id is <id>

    Examples:
      | id     | members                                |
      | 21     | "input":{"protocol":1}                 |
      | 22     | "op":1,"input":{"protocol":1}          |
      | "op-0" | "op":null,"input":{"protocol":1}       |
      | 23     | "op":{"name":"hello"},"input":{}       |
      | 24     | "op":["hello"],"input":{"protocol":1}  |
      | -25    | "op":true,"input":{"protocol":1}       |

  @PROTO-FRAME-002 @PROTO-ERROR-003
  Scenario Outline: A request whose input is missing or not an object is a bad request, answered with its id
    When it is sent the request line:
      """
      {"id":<id>,"op":"hello"<input>}
      """
    Then the answer has error kind "bad_request"
    And the answer's id is <id>

    Examples:
      | id     | input                     |
      | 31     |                           |
      | 32     | ,"input":"protocol"       |
      | "in-3" | ,"input":[{"protocol":1}] |
      | 34     | ,"input":null             |
      | 35     | ,"input":1                |
      | 36     | ,"input":true             |

  @PROTO-ID-001 @PROTO-ID-005
  Scenario Outline: An id that is a string or an integer is echoed by value, however the integer is spelt
    When it is sent the request line:
      """
      {"id":<id>,"op":"hello","input":{"protocol":1}}
      """
    Then the answer has an output
    And the answer's id is <echoed>

    Examples:
      | id                | echoed            |
      | "id-1"            | "id-1"            |
      | ""                | ""                |
      | "7"               | "7"               |
      | 7                 | 7                 |
      | -7                | -7                |
      | 9007199254740991  | 9007199254740991  |
      | -9007199254740991 | -9007199254740991 |
      | 1.0               | 1                 |
      | 1e0               | 1                 |
      | 10E-1             | 1                 |
      | -0                | 0                 |
      | 2.50e1            | 25                |

  @PROTO-FRAME-006 @PROTO-ID-005
  Scenario Outline: An id of any other type or value is no id: a bad request answered with id null
    When it is sent the request lines:
      """
      {"id":<id>,"op":"hello","input":{"protocol":1}}
      {"id":40,"op":"hello","input":{"protocol":1}}
      """
    Then answer 1 has error kind "bad_request"
    And answer 1's id is null
    And answer 2's id is 40
    And answer 2 has an output

    Examples:
      | id                |
      | 1.5               |
      | -0.5              |
      | 9007199254740992  |
      | -9007199254740992 |
      | 9007199254740993  |
      | 1e400             |
      | null              |
      | true              |
      | false             |
      | {}                |
      | {"id":1}          |
      | []                |
      | [1]               |

  @PROTO-FRAME-006
  Scenario: A request without an id is a bad request answered with id null
    When it is sent the request lines:
      """
      {"op":"hello","input":{"protocol":1}}
      {"id":41,"op":"hello","input":{"protocol":1}}
      """
    Then answer 1 has error kind "bad_request"
    And answer 1's id is null
    And answer 2's id is 41

  @PROTO-FRAME-009
  Scenario: A request naming its id twice is answered with id null, even when both say the same
    When it is sent the request lines:
      """
      {"id":42,"id":42,"op":"hello","input":{"protocol":1}}
      {"id":43,"id":44,"op":"hello","input":{"protocol":1}}
      {"id":45,"op":"hello","input":{"protocol":1}}
      """
    Then answer 1 has error kind "bad_request"
    And answer 1's id is null
    And answer 2 has error kind "bad_request"
    And answer 2's id is null
    And answer 3's id is 45

  @PROTO-FRAME-009
  Scenario Outline: A request naming another member of its envelope twice is a bad request
    When it is sent the request line:
      """
      {"id":46,<members>}
      """
    Then the answer has error kind "bad_request"
    And the answer's id is 46

    Examples:
      | members                                                       |
      | "op":"hello","op":"hello","input":{"protocol":1}              |
      | "op":"hello","input":{"protocol":1},"input":{"protocol":1}    |
      | "op":"hello","input":{"protocol":1},"grease":1,"grease":1     |

  @PROTO-FRAME-009
  Scenario: The id after a member named twice is still read, and an id named twice after another is still null
    When it is sent the request lines:
      """
      {"op":"hello","op":"hello","input":{"protocol":1},"id":47}
      {"input":{"protocol":1},"input":{"protocol":1},"op":"hello","id":48,"id":49}
      """
    Then answer 1 has error kind "bad_request"
    And answer 1's id is 47
    And answer 2 has error kind "bad_request"
    And answer 2's id is null

  @PROTO-FRAME-008
  Scenario Outline: A line of JSON white space only gets no answer, and serving goes on
    When it is sent the line "<line>" and then the request line:
      """
      {"id":50,"op":"hello","input":{"protocol":1}}
      """
    Then the answer is one line of UTF-8 JSON
    And the answer's id is 50

    Examples:
      | line          |
      |               |
      | \u0020        |
      | \t \t         |
      | \r            |
      | \u0020\r\t\r  |

  @PROTO-FRAME-008 @PROTO-FRAME-006
  Scenario Outline: A line of other white space is not JSON: a bad request answered with id null
    When it is sent the line "<line>" and then the request line:
      """
      {"id":51,"op":"hello","input":{"protocol":1}}
      """
    Then answer 1 has error kind "bad_request"
    And answer 1's id is null
    And answer 2's id is 51

    Examples:
      | line    | a trim that removes it                                               |
      | \u00a0  | JavaScript's trim(), Python's strip(), Go's bytes.TrimSpace          |
      | \u000b  | JavaScript's trim(), Python's strip(), Go's bytes.TrimSpace, Java's trim() |
      | \u000c  | JavaScript's trim(), Python's strip(), Go's bytes.TrimSpace, Java's trim() |
      | \u0085  | Python's strip(), Go's bytes.TrimSpace                               |
      | \ufeff  | JavaScript's trim()                                                  |
      | \u3000  | JavaScript's trim(), Python's strip(), Go's bytes.TrimSpace, Java's strip() |
      | \u001c  | Python's strip(), Java's trim() and strip()                          |
      | \u0000  | Java's trim()                                                        |
