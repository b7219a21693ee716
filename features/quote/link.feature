Feature: Quoting an assistant response in a message
  A user selects part of an assistant's answer and cites it in the composer. The
  citation travels inside the ordinary message text as a Markdown link labelled
  "Assistant quote", so any client can find it and read it back from the text
  alone, with no database and no sidecar metadata. A link that is not exactly
  right stays plain text, and the reader is told why it was refused.

  Background:
    Given an implementation under test

  @QUOTE-LINK-003 @QUOTE-LINK-004 @QUOTE-LINK-012 @QUOTE-LINK-013 @QUOTE-LINK-070
  Scenario: A quote becomes a Markdown link
    Given a citation of message "message-1" in thread "thread-1" of environment "env-1"
    And the quoted text is "Use the cache."
    And the quote spans 0 to 14
    And the context before it is "" and after it is ""
    When the user cites it
    Then the link is "[Assistant quote](t3-citation://v1/env-1/thread-1/message-1?text=Use+the+cache.&start=0&end=14&prefix=&suffix=)"
    And the href is "t3-citation://v1/env-1/thread-1/message-1?text=Use+the+cache.&start=0&end=14&prefix=&suffix="

  @QUOTE-LINK-010
  Scenario Outline: Source ids that are not plain words are percent-encoded in the path
    Given a citation of message "<message>" in thread "<thread>" of environment "<environment>"
    And the quoted text is "q"
    And the quote spans 0 to 1
    And the context before it is "" and after it is ""
    When the user cites it
    Then the output member "href" starts with "t3-citation://v1/<path>?text=q&"

    Examples:
      | environment        | thread     | message       | path                                               |
      | environment/remote | thread:one | assistant?one | environment%2Fremote/thread%3Aone/assistant%3Fone  |
      | a b                | it's       | (x)*!         | a%20b/it%27s/%28x%29%2A%21                         |
      | café               | 線         | ~.-_          | caf%C3%A9/%E7%B7%9A/~.-_                           |
      | \u{1F600}          | t          | m             | %F0%9F%98%80/t/m                                   |

  @QUOTE-LINK-011
  Scenario Outline: The quoted words are form-encoded in the query
    Given a citation of message "m" in thread "t" of environment "e"
    And the quoted text is "<text>"
    And the quote spans 3 to 9
    And the context before it is "" and after it is ""
    When the user cites it
    Then the output member "href" contains "?text=<encoded>&start=3&end=9&"

    Examples:
      | text                   | encoded                    |
      | A quote & a newline.\n | A+quote+%26+a+newline.%0A  |
      | tilde ~ bang!          | tilde+%7E+bang%21          |
      | 100% (sure)            | 100%25+%28sure%29          |
      | a+b=c'                 | a%2Bb%3Dc%27               |
      | star*dot.dash-under_   | star*dot.dash-under_       |
      | tab\there\r            | tab%09here%0D              |
      | 😀 線                  | %F0%9F%98%80+%E7%B7%9A     |

  @QUOTE-LINK-012 @QUOTE-LINK-042 @QUOTE-LINK-015
  Scenario: A comment rides at the end of the link and comes back
    Given a citation of message "m" in thread "t" of environment "e"
    And the quoted text is "Use the cache."
    And the quote spans 0 to 14
    And the context before it is "" and after it is " Next."
    And the user comments "Why this one?"
    When the user cites it
    Then the output member "href" ends with "&prefix=&suffix=+Next.&comment=Why+this+one%3F"
    When a client reads the href back
    Then the citation's comment is "Why this one?"
    And it gets the citation back unchanged

  @QUOTE-LINK-012 @QUOTE-LINK-042
  Scenario: An empty comment is still a comment
    Given a citation of message "m" in thread "t" of environment "e"
    And the quoted text is "q"
    And the quote spans 0 to 1
    And the context before it is "" and after it is ""
    And the user comments ""
    When the user cites it
    Then the output member "href" ends with "&suffix=&comment="
    When a client reads the href back
    Then the citation's comment is ""

  @QUOTE-LINK-042 @QUOTE-LINK-048
  Scenario: A link without a comment reads back without one
    When a client reads the href "t3-citation://v1/a/b/c?text=A+quote+%26+a+newline.%0A&start=0&end=21&prefix=&suffix=+Next."
    Then the output is:
      """json
      {"citation": {"version": 1, "environmentId": "a", "threadId": "b", "messageId": "c",
                    "text": "A quote & a newline.\n", "start": 0, "end": 21, "prefix": "", "suffix": " Next."}}
      """
    And the citation has no comment

  @QUOTE-LINK-015 @QUOTE-LINK-071 @QUOTE-LINK-048 @QUOTE-LINK-040 @QUOTE-LINK-047
  Scenario Outline: Whatever the user quotes comes back exactly as it was
    Given a citation of message "m-1" in thread "t-1" of environment "e-1"
    And the quoted text is "<text>"
    And the quote spans <start> to <end>
    And the context before it is "<prefix>" and after it is "<suffix>"
    When the user cites it
    And a client reads the href back
    Then it gets the citation back unchanged

    Examples:
      | text                        | start | end              | prefix          | suffix     |
      | \u{20}\u{20}indented\r\n\u{20}\u{20}code\t | 0     | 21               |                 |            |
      | \u{1F600} is two units      | 2     | 18               | \u{1F600}\u{1F600} | .       |
      | 線の長さ                     | 40    | 44               | 前の文。          | 後。       |
      | a & b = c; 100%             | 7     | 9007199254740991 |                 | \u{20}spaced\u{20} |

  @QUOTE-LINK-014 @QUOTE-LINK-002
  Scenario Outline: The composer refuses a citation that would not survive the trip
    Given a citation of message "m" in thread "t" of environment "e"
    And the quoted text is "q"
    And the quote spans 4 to 5
    And the context before it is "" and after it is ""
    And the citation member "<member>" is the JSON <value>
    When the user cites it
    Then it is refused with code "<code>"

    @divergence:t3code
    Examples: values the parser would refuse or change
      | member        | value       | code                   |
      | version       | 2           | QUOTE_VERSION          |
      | start         | 1.5         | QUOTE_OFFSET_RANGE     |
      | start         | -2          | QUOTE_OFFSET_RANGE     |
      | end           | 4           | QUOTE_OFFSET_ORDER     |
      | environmentId | ".."        | QUOTE_DOT_SEGMENT      |
      | threadId      | " padded "  | QUOTE_ID_WHITESPACE    |
      | messageId     | ""          | QUOTE_ID_EMPTY         |
      | text          | " \t "      | QUOTE_TEXT_EMPTY       |
      | prefix        | "0123456789abcdefghijklmnopqrstuvw" | QUOTE_CONTEXT_TOO_LONG |
      | text          | "half \ud83d of a face" | QUOTE_UNPAIRED_SURROGATE |

  @QUOTE-LINK-020 @QUOTE-LINK-071
  Scenario Outline: A hand-edited link is refused, with the reason
    When a client reads the href "<href>"
    Then it is refused with code "<code>"

    @QUOTE-LINK-021
    Examples: the scheme
      | href                                                        | code         |
      | T3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix= | QUOTE_SCHEME |
      | https://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=       | QUOTE_SCHEME |

    @QUOTE-LINK-023 @divergence:t3code
    Examples: characters a URL library would quietly repair
      | href                                                            | code                    |
      | t3-citation://v1/a/b/c?text=two words&start=0&end=1&prefix=&suffix= | QUOTE_INVALID_CHARACTER |
      | t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=\n   | QUOTE_INVALID_CHARACTER |
      | t3-citation://v1/a/b/c?text=café&start=0&end=1&prefix=&suffix=  | QUOTE_INVALID_CHARACTER |

    @QUOTE-LINK-024 @QUOTE-LINK-025 @QUOTE-LINK-026
    Examples: the authority is exactly v1
      | href                                                              | code              |
      | t3-citation://user@v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=  | QUOTE_CREDENTIALS |
      | t3-citation://v1:/a/b/c?text=q&start=0&end=1&prefix=&suffix=      | QUOTE_PORT        |
      | t3-citation://v2/a/b/c?text=q&start=0&end=1&prefix=&suffix=       | QUOTE_VERSION     |
      | t3-citation://V1/a/b/c?text=q&start=0&end=1&prefix=&suffix=       | QUOTE_VERSION     |

    @QUOTE-LINK-027 @QUOTE-LINK-028
    Examples: fragments and paths
      | href                                                              | code           |
      | t3-citation://v1/a/b?text=q&start=0&end=1&prefix=&suffix=         | QUOTE_PATH     |
      | t3-citation://v1/a/b/c/?text=q&start=0&end=1&prefix=&suffix=      | QUOTE_PATH     |

    @QUOTE-LINK-027 @QUOTE-LINK-028 @divergence:t3code
    Examples: fragments and paths, where t3code differs
      | href                                                              | code           |
      | t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=#      | QUOTE_FRAGMENT |
      | t3-citation://v1/x/../a/b/c?text=q&start=0&end=1&prefix=&suffix=  | QUOTE_PATH     |

    @QUOTE-LINK-029 @QUOTE-LINK-031 @QUOTE-LINK-032 @QUOTE-LINK-033 @QUOTE-LINK-034
    Examples: the query
      | href                                                                          | code                   |
      | t3-citation://v1/a%ED%A0%80/b/c?text=q&start=0&end=1&prefix=&suffix=          | QUOTE_PERCENT_ENCODING |
      | t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=&flag              | QUOTE_BARE_FIELD       |
      | t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=&Comment=x         | QUOTE_UNKNOWN_FIELD    |
      | t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=&comment=a&%63omment=b | QUOTE_DUPLICATE_FIELD |
      | t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=                           | QUOTE_MISSING_FIELD    |

    @QUOTE-LINK-029 @QUOTE-LINK-031 @QUOTE-LINK-032 @QUOTE-LINK-033 @QUOTE-LINK-034 @divergence:t3code
    Examples: the query, where t3code differs
      | href                                                                          | code                   |
      | t3-citation://v1/a/b/c?text=%ZZ&start=0&end=1&prefix=&suffix=                 | QUOTE_PERCENT_ENCODING |

    @QUOTE-LINK-037 @QUOTE-LINK-038 @QUOTE-LINK-040 @QUOTE-LINK-044 @QUOTE-LINK-045 @QUOTE-LINK-046 @QUOTE-LINK-047
    Examples: the values
      | href                                                                                  | code                   |
      | t3-citation://v1/%20%20/b/c?text=q&start=0&end=1&prefix=&suffix=                      | QUOTE_ID_EMPTY         |
      | t3-citation://v1/a/%2E%2e/c?text=q&start=0&end=1&prefix=&suffix=                      | QUOTE_DOT_SEGMENT      |
      | t3-citation://v1/a/b/c?text=%20+%09&start=0&end=1&prefix=&suffix=                     | QUOTE_TEXT_EMPTY       |
      | t3-citation://v1/a/b/c?text=q&start=-1&end=1&prefix=&suffix=                          | QUOTE_OFFSET_SYNTAX    |
      | t3-citation://v1/a/b/c?text=q&start=+1&end=2&prefix=&suffix=                          | QUOTE_OFFSET_SYNTAX    |
      | t3-citation://v1/a/b/c?text=q&start=1.0&end=2&prefix=&suffix=                         | QUOTE_OFFSET_SYNTAX    |
      | t3-citation://v1/a/b/c?text=q&start=0&end=9007199254740992&prefix=&suffix=            | QUOTE_OFFSET_RANGE     |
      | t3-citation://v1/a/b/c?text=q&start=5&end=5&prefix=&suffix=                           | QUOTE_OFFSET_ORDER     |
      | t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=0123456789abcdefghijklmnopqrstuvw&suffix= | QUOTE_CONTEXT_TOO_LONG |

  @QUOTE-LINK-020 @QUOTE-LINK-049
  Scenario Outline: When several things are wrong, the first check in the spec's order decides
    When a client reads the href "<href>"
    Then it is refused with code "<code>"

    Examples:
      | href                                                                | code               |
      | t3-citation://v2:80/a/b/c?text=q&start=0&end=1&prefix=&suffix=      | QUOTE_PORT         |
      | t3-citation://v1/a/b?text=q&start=0&end=1&prefix=&suffix=#x         | QUOTE_FRAGMENT     |
      | t3-citation://v1/../b/c?text=%20&start=x&end=1&prefix=&suffix=      | QUOTE_DOT_SEGMENT  |
      | t3-citation://v1/a/b/c?text=%20&start=x&end=1&prefix=&suffix=       | QUOTE_TEXT_EMPTY   |
      | t3-citation://v1/a/b/c?text=q&start=x&end=-1&prefix=&suffix=        | QUOTE_OFFSET_SYNTAX |
      | t3-citation://v1/a/b/c?text=q&start=2&end=1&prefix=0123456789abcdefghijklmnopqrstuvw&suffix= | QUOTE_OFFSET_ORDER |

  @QUOTE-LINK-030 @QUOTE-LINK-035 @QUOTE-LINK-036 @QUOTE-LINK-044
  Scenario Outline: A few harmless variations of the formatter's output are read the same
    When a client reads the href "<href>"
    Then the input is accepted
    And the citation's <member> is <value>

    Examples:
      | href                                                                     | member        | value          |
      | t3-citation://v1/a/b/c?suffix=!&prefix=&end=1&start=0&text=q             | suffix        | "!"            |
      | t3-citation://v1/a/b/c?text=q&start=007&end=0010&prefix=&suffix=         | end           | 10             |
      | t3-citation://v1/a/b/c?text=%c3%a9+%C3%A9&start=0&end=1&prefix=&suffix=  | text          | "é é"          |
      | t3-citation://v1/a/b/c?&&text=q&&start=0&end=1&prefix=&suffix=&          | text          | "q"            |
      | t3-citation://v1/a/b/c?te%78t=a=b?c;d&start=0&end=1&prefix=&suffix=      | text          | "a=b?c;d"      |
      | t3-citation://v1/%20env%20/b/c?text=q&start=0&end=1&prefix=&suffix=      | environmentId | "env"          |
      | t3-citation://v1/a+b/c/d?text=q&start=0&end=1&prefix=&suffix=            | environmentId | "a+b"          |

  @QUOTE-LINK-060 @QUOTE-LINK-061 @QUOTE-LINK-063 @QUOTE-LINK-072
  Scenario: The links in a draft are found where they stand, counted in UTF-16 units
    Given a message:
      """
      😀 See [Assistant quote](t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=) and ![Assistant quote](t3-citation://v1/a/b/d?text=r&start=1&end=2&prefix=&suffix=).
      """
    When a client collects the citations in it
    Then it finds 2 citations
    And citation 1 spans 7 to 85
    And the output member "citations[0].source" is "[Assistant quote](t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=)"
    And citation 2 spans 91 to 169
    And citation 2 quotes "r"
    And the output member "citations[1].citation.messageId" is "d"

  @QUOTE-LINK-060 @QUOTE-LINK-072
  Scenario Outline: Look-alike links stay plain text
    Given a message "Before <link> after"
    When a client collects the citations in it
    Then it finds 0 citations

    Examples:
      | link                                                                                   |
      | [assistant quote](t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=)         |
      | [Assistant Quote](t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=)         |
      | [Quote](t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=)                   |
      | [Assistant quote](t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix= \"title\") |
      | [Assistant quote](https://example.com/a/b/c?text=q&start=0&end=1&prefix=&suffix=)      |
      | [Assistant quote](t3-citation://v2/a/b/c?text=q&start=0&end=1&prefix=&suffix=)         |

  @QUOTE-LINK-062 @QUOTE-LINK-064
  Scenario: A broken link stays in the text and the next one is still found
    Given a message:
      """
      [Assistant quote](t3-citation://v1/a/b?text=q&start=0&end=1&prefix=&suffix=)[Assistant quote](t3-citation://v1/a/b/c?text=ok&start=0&end=2&prefix=&suffix=)
      """
    When a client collects the citations in it
    Then it finds 1 citation
    And citation 1 spans 76 to 155
    And citation 1 quotes "ok"

  @QUOTE-LINK-002 @QUOTE-LINK-022 @QUOTE-LINK-039 @QUOTE-LINK-041 @QUOTE-LINK-043 @QUOTE-LINK-047
  Scenario Outline: Every limit is counted in UTF-16 units, and its last unit is allowed
    When a client reads an href whose <field> is "<unit>" repeated <n> times
    Then <answer>

    Examples: at the limit
      | field         | unit         | n      | answer                |
      | environmentId | a            | 512    | the input is accepted |
      | messageId     | %F0%9F%98%80 | 256    | the input is accepted |
      | text          | x            | 8000   | the input is accepted |
      | text          | %E7%B7%9A    | 8000   | the input is accepted |
      | comment       | %F0%9F%98%80 | 4000   | the input is accepted |
      | suffix        | %F0%9F%98%80 | 16     | the input is accepted |

    Examples: one unit over
      | field         | unit         | n      | answer                                           |
      | environmentId | a            | 513    | it is refused with code "QUOTE_ID_TOO_LONG"      |
      | messageId     | %F0%9F%98%80 | 257    | it is refused with code "QUOTE_ID_TOO_LONG"      |
      | text          | x            | 8001   | it is refused with code "QUOTE_TEXT_TOO_LONG"    |
      | comment       | %F0%9F%98%80 | 4001   | it is refused with code "QUOTE_COMMENT_TOO_LONG" |
      | prefix        | %F0%9F%98%80 | 17     | it is refused with code "QUOTE_CONTEXT_TOO_LONG" |

    Examples: the whole href, at 160,000 units and one over
      | field         | unit         | n      | answer                                           |
      | text          | x            | 159933 | it is refused with code "QUOTE_TEXT_TOO_LONG"    |
      | text          | x            | 159934 | it is refused with code "QUOTE_HREF_TOO_LONG"    |

  @QUOTE-LINK-001
  Scenario: A citation read back lists its members in a fixed order
    When a client reads the href "t3-citation://v1/a/b/c?suffix=s&comment=c&prefix=p&end=2&start=1&text=t"
    Then the citation's members come in the order "version", "environmentId", "threadId", "messageId", "text", "comment", "start", "end", "prefix", "suffix"
