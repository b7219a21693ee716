Feature: Following a citation to the data that backs it
  A client joins a citation to the data part it names and applies the locator:
  a JSON Pointer into the part's value or a range of its lines. A locator that
  does not resolve, or has no known form at all, never loses the citation: the
  client cites the whole part.

  Background:
    Given an implementation under test

  @MARKER-LOCATE-001 @MARKER-LOCATE-002 @MARKER-LOCATE-003
  Scenario Outline: A JSON Pointer picks one value out of the part
    When the client resolves the locator "<locator>" in:
      """json
      {"results": [{"findings": "cardiomyopathy"}], "": 0, "a/b": 1, "m~n": 8, "~1": "tilde one",
       "01": "a name", "-": "dash", " ": 7, "dup": 1, "dup": 2}
      """
    Then it resolves to the value <value>

    Examples:
      | locator              | value                |
      | /results/0/findings  | "cardiomyopathy"     |
      | /results/0           | {"findings": "cardiomyopathy"} |
      | /                    | 0                    |
      | /a~1b                | 1                    |
      | /m~0n                | 8                    |
      | /~01                 | "tilde one"          |
      | /01                  | "a name"             |
      | /-                   | "dash"               |
      | /\u{20}              | 7                    |
      | /dup                 | 2                    |

  @MARKER-LOCATE-001
  Scenario: No locator means the whole part
    When the client resolves the locator "" in:
      """json
      [1, {"two": 2}]
      """
    Then it resolves to the value [1, {"two": 2}]

  @MARKER-LOCATE-004 @MARKER-LOCATE-005
  Scenario Outline: A pointer that leads nowhere leaves the citation on the whole part
    When the client resolves the locator "<locator>" in:
      """json
      {"list": ["a", "b"], "text": "abc", "n": null}
      """
    Then it does not resolve

    Examples:
      | locator          |
      | /list/2          |
      | /list/01         |
      | /list/-          |
      | /list/+1         |
      | /list/1e0        |
      | /list/99999999999999999999 |
      | /text/0          |
      | /n/x             |
      | /missing         |

  @MARKER-LOCATE-006 @MARKER-LOCATE-007
  Scenario Outline: A line range picks lines out of a text part
    When the client resolves the locator "<locator>" in:
      """json
      "first\r\nsecond\n\nfourth\n"
      """
    Then it resolves to the lines <lines>

    Examples:
      | locator | lines                                |
      | L1      | ["first"]                            |
      | L2-L4   | ["second", "", "fourth"]             |
      | L4-L4   | ["fourth"]                           |

  @MARKER-LOCATE-006 @MARKER-LOCATE-007
  Scenario Outline: Line ranges are never clamped or guessed
    When the client resolves the locator "<locator>" in:
      """json
      <value>
      """
    Then it does not resolve

    Examples:
      | locator | value              |
      | L0      | "one\\ntwo"         |
      | L01     | "one\\ntwo"         |
      | L3      | "one\\ntwo\\n"       |
      | L2-L1   | "one\\ntwo"         |
      | L1-L3   | "one\\ntwo"         |
      | L1      | ""                 |
      | L1      | {"text": "one"}    |

  @MARKER-LOCATE-010
  Scenario Outline: A locator of no known form falls back to the whole part, never fails
    When the client resolves the locator "<locator>" in:
      """json
      {"a": 1}
      """
    Then it does not resolve and is marked malformed

    Examples:
      | locator |
      | a       |
      | #/a     |
      | l8      |
      | L8-13   |
      | /a~2    |
      | /a~     |
