Feature: Clean answers with citations
  An agent answers from the data parts its connectors produced and marks each
  claim with an inline marker naming the part that backs it. The server removes
  every marker before the client sees the text and hands over the citations as
  metadata instead, so the client renders clean prose and links each claim to
  its source. In these stories {cite:ID} and {cite:ID:LOCATOR} stand for a
  well-formed marker, and {START}, {DELIM} and {STOP} for U+E200, U+E202 and
  U+E201 when a story needs a broken one.

  Background:
    Given an implementation under test

  @MARKER-OFFSET-006 @MARKER-STRIP-001 @MARKER-STRIP-002 @MARKER-OFFSET-002 @MARKER-OFFSET-003 @MARKER-STRIP-006
  Scenario: A PubMed-backed answer, as in the seed's example
    Given the data parts:
      | id           | value                                                                                  |
      | tool_data_02 | {"results": [{"findings": "Doxorubicin carries a dose-dependent risk of cardiomyopathy."}]} |
      | tool_data_03 | {"limit": "450 mg/m²"}                                                                 |
      | tool_data_04 | {"unused": true}                                                                       |
    And the model writes:
      """
      Doxorubicin is associated with dose-dependent cardiotoxicity{cite:tool_data_02:/results/0/findings}. The recommended cumulative dose limit is 450 mg/m²{cite:tool_data_03}.
      """
    When the server strips the markers
    Then the client receives "Doxorubicin is associated with dose-dependent cardiotoxicity. The recommended cumulative dose limit is 450 mg/m²."
    And the citations are:
      | data_part_id | offset | locator             |
      | tool_data_02 | 61     | /results/0/findings |
      | tool_data_03 | 113    |                     |
    And the parts passed through are ["tool_data_02", "tool_data_03"]

  @MARKER-STRIP-001
  Scenario: Removing a marker leaves the spaces around it alone
    Given the data part "p1"
    And the model writes "One claim. {cite:p1} Next claim."
    When the server strips the markers
    Then the client receives "One claim.  Next claim."

  @MARKER-OFFSET-001
  Scenario Outline: Offsets count characters, not bytes or UTF-16 units
    Given the data part "p1"
    And the model writes:
      """
      <text>
      """
    When the server strips the markers
    Then the citations are:
      | data_part_id | offset   | locator |
      | p1           | <offset> |         |

    Examples:
      | text                          | offset |
      | 😀 claim{cite:p1} more        | 7      |
      | 線が長い{cite:p1}。 次         | 5      |
      | cafe\u{301}{cite:p1} au lait  | 5      |

  @MARKER-OFFSET-003 @MARKER-OFFSET-004 @MARKER-OFFSET-005
  Scenario Outline: A citation lands after the punctuation that closes its clause
    Given the data part "p1"
    And the model writes:
      """
      <text>
      """
    When the server strips the markers
    Then the citations are:
      | data_part_id | offset   | locator |
      | p1           | <offset> |         |

    Examples: punctuation before or after the marker gives the same offset
      | text                     | offset |
      | claim{cite:p1}. Next     | 6      |
      | claim.{cite:p1} Next     | 6      |
      | claim{cite:p1}!?) Next   | 8      |
      | claim{cite:p1}…” Next    | 7      |
      | claim{cite:p1}。」        | 7      |
      | claim{cite:p1}           | 5      |

    Examples: what stops the move
      | text                     | offset |
      | claim{cite:p1} (aside)   | 5      |
      | claim{cite:p1}(aside)    | 5      |
      | claim{cite:p1}— aside    | 5      |
      | claim{cite:p1}¿verdad?   | 5      |
      | claim{cite:p1}“quoted”   | 5      |
      | costs 3{cite:p1}.5 euros | 8      |
      | claim{cite:p1}_x         | 5      |

  @MARKER-OFFSET-003 @MARKER-STRIP-005
  Scenario: Adjacent markers share an offset and keep their order
    Given the data part "p1"
    And the data part "p2"
    And the model writes "Both agree{cite:p2}{cite:p1}. And p1 again{cite:p1}."
    When the server strips the markers
    Then the client receives "Both agree. And p1 again."
    And the citations are:
      | data_part_id | offset | locator |
      | p2           | 11     |         |
      | p1           | 11     |         |
      | p1           | 25     |         |
    And the parts passed through are ["p1", "p2"]

  @MARKER-STRIP-003 @MARKER-STRIP-006
  Scenario: A marker naming a part that does not exist is removed without a citation
    Given the data part "p1"
    And the data part "p2"
    And the model writes "Claim{cite:tool_data_99}. Other{cite:p2}."
    When the server strips the markers
    Then the client receives "Claim. Other."
    And the citations are:
      | data_part_id | offset | locator |
      | p2           | 13     |         |
    And the parts passed through are ["p2"]

  @MARKER-STRIP-004
  Scenario Outline: The user's own data is never a citation source
    Given the data part "<id>"
    And the model writes "As you said{cite:<id>}."
    When the server strips the markers
    Then the client receives "As you said."
    And there are no citations
    And the parts passed through are []

    Examples:
      | id            |
      | user_data_1   |
      | user_text_7   |
      | USER_DATA_x   |
      | User_Text_    |

  @MARKER-STRIP-007
  Scenario: Two data parts with one id make the artifact unusable
    Given the data part "p1"
    And the data part "p1"
    And the model writes "Claim{cite:p1}."
    When the server strips the markers
    Then it is refused with code "MARKER_DUPLICATE_PART_ID"

  @MARKER-GRAMMAR-001 @MARKER-GRAMMAR-002 @MARKER-GRAMMAR-003 @MARKER-GRAMMAR-004 @MARKER-GRAMMAR-005 @MARKER-GRAMMAR-006 @MARKER-GRAMMAR-010
  Scenario Outline: A marker that does not follow the grammar stays in the text as it is
    Given the data part "p1"
    And the data part "p2"
    And the model writes:
      """
      Claim <marker> end.
      """
    When the server strips the markers
    Then the client receives:
      """
      Claim <marker> end.
      """
    And there are no citations

    @MARKER-GRAMMAR-002
    Examples: another family
      | marker                                 |
      | {START}filecite{DELIM}p1{STOP}         |
      | {START}CITE{DELIM}p1{STOP}             |
      | {START}cit{DELIM}p1{STOP}              |

    @MARKER-GRAMMAR-003 @MARKER-GRAMMAR-004
    Examples: the source
      | marker                                 |
      | {START}cite{DELIM}p.1{STOP}            |
      | {START}cite{DELIM}pé{STOP}             |
      | {START}cite{DELIM}p1{DELIM}p2{STOP}    |
      | {START}cite{DELIM}p1{DELIM}L8{DELIM}p2{STOP} |

    @MARKER-GRAMMAR-005
    Examples: the locator
      | marker                                 |
      | {START}cite{DELIM}p1{DELIM}L8-13{STOP} |
      | {START}cite{DELIM}p1{DELIM}l8{STOP}    |
      | {START}cite{DELIM}p1{DELIM}#/a{STOP}   |
      | {START}cite{DELIM}p1{DELIM}/a~2{STOP}  |
      | {START}cite{DELIM}p1{DELIM}L1234567890{STOP} |

    @MARKER-GRAMMAR-006 @MARKER-GRAMMAR-010
    Examples: empty fields, spaces and controls
      | marker                                 |
      | {START}cite{STOP}                      |
      | {START}cite{DELIM}{STOP}               |
      | {START}cite{DELIM}{DELIM}{STOP}        |
      | {START}cite{DELIM}p1{DELIM} {STOP}     |
      | {START}cite{DELIM}p1{DELIM}{DELIM}{STOP} |
      | {START}cite{DELIM} p1{STOP}            |
      | {START}cite {DELIM}p1{STOP}            |
      | {START}cite{DELIM}p1{DELIM}L8\u{9}{STOP} |
      | {START}cite{DELIM}p1\u{A}{STOP}        |

  @MARKER-GRAMMAR-011 @MARKER-STRIP-001 @MARKER-STRIP-002
  Scenario: An empty locator cites the whole part, and no delimiter reaches the client
    Given the data part "tool_data_02"
    And the model writes "Fact.{START}cite{DELIM}tool_data_02{DELIM}{STOP} More.{cite:tool_data_02}"
    When the server strips the markers
    Then the client receives "Fact. More."
    And the citations are:
      | data_part_id | offset | locator |
      | tool_data_02 | 5      |         |
      | tool_data_02 | 11     |         |

  @MARKER-STRIP-010 @MARKER-STRIP-004
  Scenario Outline: An answer that cites only the user's own data and says nothing is retried
    Given the data part "user_data_1"
    And the data part "tool_data_01"
    And the model writes "<written>"
    When the server strips the markers
    Then the client receives "<received>"
    And there are no citations
    And the server retries instead of completing the answer

    Examples:
      | written                                    | received |
      | {cite:user_data_1}                         |          |
      | {cite:user_data_1}\n{cite:USER_TEXT_9:L2}  | \n       |
      | {cite:user_data_1:}\u{A0}                  | \u{A0}   |

  @MARKER-STRIP-010
  Scenario Outline: Any answer text, or any other cited part, completes the answer
    Given the data part "user_data_1"
    And the data part "tool_data_01"
    And the model writes "<written>"
    When the server strips the markers
    Then the client receives "<received>"
    And the server completes the answer

    Examples:
      | written                                | received        |
      | As you said{cite:user_data_1}.         | As you said.    |
      | {cite:user_data_1}{cite:tool_data_01}  |                 |
      | {cite:user_data_1}{cite:tool_data_99}  |                 |
      | \u{200B}{cite:user_data_1}             | \u{200B}        |
      | {cite:user_data_1}{START}cite          | {START}cite     |
      |                                        |                 |

  @MARKER-GRAMMAR-005 @MARKER-LOCATE-009
  Scenario: A locator that points nowhere still makes a citation
    Given the data part "p1" holding:
      """json
      {"a": 1}
      """
    And the model writes "Claim{cite:p1:/missing/0}. Lines{cite:p1:L0}."
    When the server strips the markers
    Then the citations are:
      | data_part_id | offset | locator    |
      | p1           | 6      | /missing/0 |
      | p1           | 13     | L0         |

  @MARKER-GRAMMAR-007 @MARKER-GRAMMAR-008 @MARKER-GRAMMAR-009
  Scenario Outline: Broken pieces never swallow the text around them
    Given the data part "p1"
    And the model writes:
      """
      <written>
      """
    When the server strips the markers
    Then the client receives:
      """
      <received>
      """
    And the output member "citations" has <n> elements

    Examples:
      | written                                          | received                                | n |
      | a {STOP} b {DELIM} c                             | a {STOP} b {DELIM} c                    | 0 |
      | tail {START}cite{DELIM}p1                        | tail {START}cite{DELIM}p1               | 0 |
      | escaped \ue200cite\ue202p1\ue201 text            | escaped \ue200cite\ue202p1\ue201 text   | 0 |
      | {START}cite{DELIM}a{cite:p1} x                   | {START}cite{DELIM}a{START}cite{DELIM}p1{STOP} x | 0 |
      | {START}cite{DELIM}a b{cite:p1} x                 | {START}cite{DELIM}a b x                 | 1 |
      | {START}{cite:p1} x                               | {START}{START}cite{DELIM}p1{STOP} x     | 0 |

  @MARKER-STRIP-008
  Scenario: Half an emoji counts as one replacement character
    When "marker.strip" is called with:
      """json
      {"text": "\ud83d claim\ue200cite\ue202p1\ue201.", "parts": [{"id": "p1", "value": null}]}
      """
    Then the output is:
      """json
      {"text": "\ufffd claim.", "citations": [{"data_part_id": "p1", "offset": 8, "locator": ""}], "parts": ["p1"]}
      """

  @MARKER-STRIP-009
  Scenario: Stripping a stripped text changes nothing
    Given the data part "p1"
    And the model writes "{START}ci{cite:p1}te{DELIM}p1{STOP}, then {cite:p1}."
    When the server strips the markers
    And the server strips the markers of that text again
    Then the output member "text" equals the previous output member "text"
    And there are no citations
