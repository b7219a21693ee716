Feature: Finding a quoted span again
  When the user selects part of an assistant response, the selection is saved as
  the exact excerpt plus where it sits in the response's text, with up to 32
  UTF-16 units of context on each side, all counted after each run of
  whitespace is read as one space. Later a client looks for it in the response
  as it then reads. It finds it when the excerpt and its context point to one
  place, and it never guesses between two.

  Background:
    Given an implementation under test

  @QUOTE-ANCHOR-017 @QUOTE-ANCHOR-018 @QUOTE-ANCHOR-019 @QUOTE-ANCHOR-020 @QUOTE-ANCHOR-021
  Scenario: A selection that starts inside a run of whitespace, as in the spec's example
    Given an assistant response "Before \n  quote\t \n after"
    When the user selects from 8 to 16
    Then the selector is:
      """json
      {"text": "  quote\t", "start": 6, "end": 13, "prefix": "Before", "suffix": "after"}
      """

  @QUOTE-ANCHOR-024 @QUOTE-ANCHOR-028 @QUOTE-ANCHOR-031
  Scenario: A quote is found again after the whitespace around it changed
    Given an assistant response:
      """
      The sky is blue.
      Water is wet.
      """
    When the user selects "Water is wet"
    Then the selector's text is "Water is wet"
    And the selector's prefix is "The sky is blue. "
    And the selector's suffix is "."
    Given the response later reads "The sky   is blue.\t\tWater  is\u00A0wet."
    When the client looks for the saved selector
    Then it is found from 17 to 29

  @QUOTE-ANCHOR-001 @QUOTE-ANCHOR-021
  Scenario: Offsets and context count UTF-16 units: an emoji counts two
    Given an assistant response "😀 Say hello. 😀 Say hello again."
    When the user selects "hello again"
    Then the selector is:
      """json
      {"text": "hello again", "start": 21, "end": 32, "prefix": "😀 Say hello. 😀 Say ", "suffix": "."}
      """

  @QUOTE-ANCHOR-022
  Scenario: The context never keeps half of an emoji
    Given an assistant response "😀xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxQUOTE"
    When the user selects "QUOTE"
    Then the selector's start is 33
    And the selector's prefix is "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

  @QUOTE-ANCHOR-008 @QUOTE-ANCHOR-017
  Scenario: A quote across two paragraphs keeps its line break and is found with a space
    Given an assistant response:
      """
      First paragraph.
      Second one.
      """
    When the user selects "paragraph.\nSecond"
    Then the selector's text is "paragraph.\nSecond"
    And the selector's start is 6
    And the selector's end is 23
    When the client looks for the saved selector
    Then it is found from 6 to 23

  @QUOTE-ANCHOR-010 @QUOTE-ANCHOR-011 @QUOTE-ANCHOR-012 @QUOTE-ANCHOR-013 @QUOTE-ANCHOR-014 @QUOTE-ANCHOR-016
  Scenario Outline: A selection that cannot be cited is refused, with the first reason that applies
    Given an assistant response "Hi 😀 there"
    When the user selects from <start> to <end>
    Then it is refused with code "<code>"

    Examples:
      | start | end | code                             |
      | -1    | 2   | QUOTE_SELECTION_OUT_OF_RANGE     |
      | -1    | -2  | QUOTE_SELECTION_OUT_OF_RANGE     |
      | 5     | 2   | QUOTE_SELECTION_REVERSED         |
      | 3     | 3   | QUOTE_SELECTION_EMPTY            |
      | 4     | 4   | QUOTE_SELECTION_EMPTY            |
      | 2     | 3   | QUOTE_SELECTION_BLANK            |

    @divergence:t3code
    Examples: where t3code differs
      | start | end | code                             |
      | 0     | 12  | QUOTE_SELECTION_OUT_OF_RANGE     |
      | 4     | 7   | QUOTE_SELECTION_SPLITS_SURROGATE |
      | 0     | 4   | QUOTE_SELECTION_SPLITS_SURROGATE |

  @QUOTE-ANCHOR-026 @QUOTE-ANCHOR-027 @QUOTE-ANCHOR-028 @QUOTE-ANCHOR-029
  Scenario: The context picks one of several equal quotes, and a later copy makes it ambiguous
    Given an assistant response "ok. ok. ok."
    When the user selects occurrence 2 of "ok"
    Then the selector's prefix is "ok. "
    And the selector's suffix is ". ok."
    When the client looks for the saved selector
    Then it is found from 4 to 6
    Given the response later reads "ok. ok. ok. ok."
    When the client looks for the saved selector
    Then it is ambiguous

  @QUOTE-ANCHOR-030 @QUOTE-ANCHOR-033
  Scenario: An edited response: a unique quote is still found, a changed one is not
    Given an assistant response "The sky is blue. Water is wet."
    When the user selects "Water is wet"
    Given the response later reads "Water is wet, they say."
    When the client looks for the saved selector
    Then it is found from 0 to 12
    Given an assistant response "The sky is blue. Water is wet."
    When the user selects "Water is wet"
    Given the response later reads "The sky is blue. Water is damp."
    When the client looks for the saved selector
    Then it is not found

  @QUOTE-ANCHOR-024 @QUOTE-ANCHOR-025 @QUOTE-ANCHOR-026 @QUOTE-ANCHOR-027 @QUOTE-ANCHOR-030
  Scenario Outline: Looking for a quote with its context
    Given an assistant response "<response>"
    When the client looks for "<quote>" between "<prefix>" and "<suffix>"
    Then it is <answer>

    Examples: found
      | response          | quote      | prefix | suffix | answer            |
      | x b x b           | b          | \u{20}x\u{20} |  | found from 6 to 7 |
      | banana            | ana        | b      |        | found from 1 to 4 |
      | banana            | ana        |        | s      | ambiguous         |
      | Lorem   ipsum     | m ipsum    |        |        | found from 4 to 11 |
      | Lorem   ipsum     | m\n\tipsum |        |        | found from 4 to 11 |

    Examples: not found
      | response          | quote      | prefix | suffix | answer            |
      | Water is wet      | water      |        |        | not found         |
      | café              | cafe\u{301} |       |        | not found         |
      | anything          | \u{20}\t   |        |        | not found         |
      | nothing here      | absent     | x      | y      | not found         |

  @QUOTE-ANCHOR-032
  Scenario: The saved offsets never change the answer
    Given an assistant response "one two one"
    When the client looks for the selector:
      """json
      {"text": "two", "start": -5, "end": 2.5, "prefix": "one ", "suffix": " one"}
      """
    Then it is found from 4 to 7
    When the client looks for the selector:
      """json
      {"text": "one", "start": 0, "end": 3, "prefix": "", "suffix": ""}
      """
    Then it is ambiguous

  @QUOTE-ANCHOR-003 @QUOTE-ANCHOR-004 @QUOTE-ANCHOR-005 @QUOTE-ANCHOR-006
  Scenario Outline: Every run of whitespace reads as one space, and nothing else changes
    Given an assistant response "<text>"
    When the response is normalized
    Then the normalized text is "<normalized>"

    Examples:
      | text                          | normalized             |
      | \u{20}\u{20}lead and trail\n  | \u{20}lead and trail\u{20} |
      | Tab\tand\r\nCRLF              | Tab and CRLF           |
      | a\u{A0}\u{2003}\u{3000}b      | a b                    |
      | \u{FEFF}x\u{2028}y            | \u{20}x y              |
      | a\u{85}b\u{200B}c\u{180E}d    | a\u{85}b\u{200B}c\u{180E}d |
      | Cafe\u{301} CAFÉ              | Cafe\u{301} CAFÉ       |

  @QUOTE-ANCHOR-002 @divergence:t3code
  Scenario: Half an emoji reads as a replacement character, one unit long
    When "quote.normalize" is called with:
      """json
      {"text": "a\ud83d  b"}
      """
    Then the output is {"text": "a\ufffd b"}

  @QUOTE-ANCHOR-015 @QUOTE-ANCHOR-016
  Scenario Outline: A selection longer than a citation can carry is refused
    Given an assistant response of "<unit>" repeated <n> times
    When the user selects from 0 to <end>
    Then <answer>

    Examples:
      | unit | n    | end  | answer                                                |
      | x    | 8001 | 8000 | the input is accepted                                 |
      | 😀   | 4000 | 8000 | the input is accepted                                 |

    @divergence:t3code
    Examples: where t3code differs
      | unit | n    | end  | answer                                                |
      | x    | 8001 | 8001 | it is refused with code "QUOTE_SELECTION_TOO_LONG"    |
      | 😀   | 4001 | 8002 | it is refused with code "QUOTE_SELECTION_TOO_LONG"    |
      | 😀   | 4001 | 8001 | it is refused with code "QUOTE_SELECTION_SPLITS_SURROGATE" |

  @QUOTE-ANCHOR-007 @QUOTE-ANCHOR-008 @QUOTE-ANCHOR-009 @QUOTE-ANCHOR-037 @QUOTE-ANCHOR-039
  Scenario: The text stream of a rendered response: code and links in, controls and hidden text out
    Given an assistant response rendered from the HTML:
      """
      <h3>Caching</h3><p>Run <code>make cache</code><button>Copy</button> and read <a href="https://example.com/doc">the guide</a>.</p><div aria-hidden="true">decoration</div><ul><li>one<li>two<br>lines</ul><script>track()</script>
      """
    Then its text stream reads "Caching\nRun make cache and read the guide.\none\ntwo\nlines"
    And its line feeds are inserted at [7, 42, 46, 50]

  @QUOTE-ANCHOR-036 @QUOTE-ANCHOR-037 @QUOTE-ANCHOR-017 @QUOTE-ANCHOR-021
  Scenario: A triple click that ends at the start of the next paragraph cites only its own paragraph
    Given an assistant response rendered from the HTML:
      """
      <p>Para one.</p><p>Para two.</p>
      """
    When the user triple-clicks, the browser reporting 0 to 10
    Then the selector is:
      """json
      {"text": "Para one.", "start": 0, "end": 9, "prefix": "", "suffix": " Para two."}
      """
    When the client looks for the saved selector
    Then it is found from 0 to 9

  @QUOTE-ANCHOR-038 @QUOTE-ANCHOR-036 @QUOTE-ANCHOR-017
  Scenario: Line feeds inside a code block are text, and only the inserted one is narrowed away
    Given an assistant response rendered from the HTML:
      """
      <pre>x = 1
        y = 2</pre><p>Next.</p>
      """
    Then its line feeds are inserted at [13]
    When the user triple-clicks, the browser reporting 0 to 14
    Then the selector's text is "x = 1\n  y = 2"
    And the selector's suffix is " Next."

  @QUOTE-ANCHOR-011 @QUOTE-ANCHOR-017 @QUOTE-ANCHOR-021
  Scenario: A selection dragged backward cites the same excerpt as one dragged forward
    Given an assistant response "Keep the cache warm. Then restart."
    When the user drags backward from 19 to 5
    Then the selector is:
      """json
      {"text": "the cache warm", "start": 5, "end": 19, "prefix": "Keep ", "suffix": ". Then restart."}
      """
    When the user selects from 5 to 19
    Then the selector's text is "the cache warm"
    And the selector's start is 5
    When the client looks for the saved selector
    Then it is found from 5 to 19

  @QUOTE-ANCHOR-010
  Scenario: An offset too large for any integer type is still out of range
    When "quote.select" is called with {"text":"ab","start":1e99999999999999999999,"end":2}
    Then it is refused with code "QUOTE_SELECTION_OUT_OF_RANGE"

  @PROTO-ERROR-003 @QUOTE-ANCHOR-036
  Scenario Outline: Breaks that are not increasing offsets of line feeds of the text are a bad request
    The op schema cannot say which offsets of a text are line feeds, so no vector can carry these.

    When "quote.select" is called with {"text":"ab\ncd","start":0,"end":1,"breaks":<breaks>}
    Then the answer has error kind "bad_request"

    Examples:
      | breaks | why                               |
      | [5]    | the text's length: past its end   |
      | [1]    | a letter, not a line feed         |
      | [2,2]  | not increasing                    |
      | [-1]   | below the text                    |
