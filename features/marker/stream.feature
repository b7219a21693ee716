Feature: Citations in a streamed answer
  The answer reaches the client token by token. The server strips markers from
  each delta as it arrives, holding back only what may still become a marker, so
  no piece of a marker ever reaches the client, even when a delta, or a network
  chunk, ends in the middle of one.

  Background:
    Given an implementation under test
    And the data part "p1"

  @MARKER-STREAM-001 @MARKER-STREAM-002 @MARKER-STREAM-005
  Scenario: A marker split across deltas is held back, then removed
    When the model streams the deltas:
      | "The sky is blue"       |
      | ". Water{START}ci"      |
      | "te{DELIM}p1{STOP} is wet." |
    Then the client receives the deltas:
      | "The sky is blue" |
      | ". Water"         |
      | " is wet."        |
      | ""                |
    And the client receives "The sky is blue. Water is wet."
    And the citations are:
      | data_part_id | offset | locator |
      | p1           | 22     |         |
    And the parts passed through are ["p1"]

  @MARKER-STREAM-002
  Scenario: Text without markers passes through delta for delta
    When the model streams the deltas:
      | "Plain "    |
      | ""          |
      | "text, 😀." |
    Then the client receives the deltas:
      | "Plain "    |
      | ""          |
      | "text, 😀." |
      | ""          |

  @MARKER-STREAM-003
  Scenario: A candidate that fails is released with the character that broke it
    When the model streams the deltas:
      | "a{START}cite{DELIM}x" |
      | "y z"                  |
    Then the client receives the deltas:
      | "a"                         |
      | "{START}cite{DELIM}xy z"    |
      | ""                          |
    And the client receives "a{START}cite{DELIM}xy z"

  @MARKER-STREAM-004
  Scenario: An unfinished marker at the end of the stream is released, not dropped
    When the model streams the deltas:
      | "claim{START}cite" |
      | "{DELIM}p1"        |
    Then the client receives the deltas:
      | "claim"                |
      | ""                     |
      | "{START}cite{DELIM}p1" |
    And there are no citations

  @MARKER-STREAM-005
  Scenario Outline: Wherever the deltas are cut, the result is the one for the whole text
    When the model streams the deltas:
      | "<first>"  |
      | "<second>" |
    Then the client receives "Claim one. Claim two."
    And the citations are:
      | data_part_id | offset | locator |
      | p1           | 10     | L2-L3   |
      | p1           | 21     |         |

    Examples:
      | first                                   | second                                      |
      | Claim one{START}                        | cite{DELIM}p1{DELIM}L2-L3{STOP}. Claim two{cite:p1}. |
      | Claim one{START}cite{DELIM}p1{DELIM}L2  | -L3{STOP}. Claim two{cite:p1}.              |
      | Claim one{cite:p1:L2-L3}. Claim two{START}cite{DELIM}p1 | {STOP}.                    |

  @MARKER-STREAM-002 @MARKER-GRAMMAR-011
  Scenario: A marker with an empty locator is held back until its STOP, then removed
    When the model streams the deltas:
      | "Fact.{START}cite{DELIM}p1" |
      | "{DELIM}"                   |
      | "{STOP} More."              |
    Then the client receives the deltas:
      | "Fact."  |
      | ""       |
      | " More." |
      | ""       |
    And the citations are:
      | data_part_id | offset | locator |
      | p1           | 5      |         |

  @MARKER-STREAM-008
  Scenario: A streamed answer citing only the user's data, with no text, is retried
    Given the data part "user_text_3"
    When the model streams the deltas:
      | "{START}cite{DELIM}user_te" |
      | "xt_3{STOP}"                |
      | " "                         |
    Then the client receives " "
    And the server retries instead of completing the answer

  @MARKER-STREAM-008
  Scenario: A streamed answer with text is completed
    When the model streams the deltas:
      | "{cite:user_text_3}" |
      | "Noted."             |
    Then the client receives "Noted."
    And the server completes the answer

  @MARKER-STREAM-006
  Scenario: A delimiter split between network chunks is put back together
    When the model streams the bytes:
      | 61 EE 88                   |
      | 80 63 69 74 65 EE          |
      | 88 82 70 31 EE 88 81 2E    |
    Then the client receives the deltas:
      | "a" |
      | ""  |
      | "." |
      | ""  |
    And the citations are:
      | data_part_id | offset | locator |
      | p1           | 2      |         |

  @MARKER-STREAM-006
  Scenario: An emoji split between chunks is released whole
    When the model streams the bytes:
      | 68 69 F0 9F |
      | 98 80 21    |
    Then the client receives the deltas:
      | "hi"  |
      | "😀!" |
      | ""    |

  @MARKER-STREAM-007
  Scenario Outline: Bytes that are not UTF-8 make the stream unusable
    When the model streams the bytes:
      | <chunk> |
    Then it is refused with code "MARKER_INVALID_UTF8"

    Examples:
      | chunk          |
      | 61 FF 62       |
      | 61 ED A0 80    |
      | 61 C0 AF       |
      | 61 EE 88       |
